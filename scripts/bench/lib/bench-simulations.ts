// The Philly benches' own simulation rows in the bench database (BENCH_DATABASE_URL): queued by
// philly-stored.ts, or from the form by philly-browser.ts, and removed once measured and
// printed. Each run stores ~8 MB of results; kept, they grew the database by that much a run.
import type pg from "pg";

/** Queues a Philly simulation for the bundled worker, as philly-stored.ts runs it; returns its id. */
export async function insertBenchSimulation(
  client: pg.ClientBase,
  userId: string,
): Promise<string> {
  const id = `bench${Date.now().toString(36)}`;
  await client.query(
    `INSERT INTO simulations (id, "userId", name, source, options, "updatedAt")
     VALUES ($1, $2, 'Philly (philly-stored bench)', 'philly', '{}', now())`,
    [id, userId],
  );
  return id;
}

/**
 * Deletes the simulations with exactly these ids, and no other row, then vacuums the table so
 * that the next run's results reuse the space of these (autovacuum would, but later). Returns
 * how many rows were deleted.
 */
export async function removeBenchSimulations(
  client: pg.ClientBase,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const deleted = await client.query("DELETE FROM simulations WHERE id = ANY($1::text[])", [ids]);
  await client.query("VACUUM simulations");
  return deleted.rowCount ?? 0;
}

/** The id of the simulation whose page `url` shows (`/simulations/<id>`), or null for another. */
function simulationIdIn(url: string | URL): string | null {
  const id = /^\/simulations\/([^/]+)$/.exec(new URL(url).pathname)?.[1];
  return !id || id === "new" ? null : decodeURIComponent(id);
}

/** Whether `url` is a simulation's own page, not the form's (`/simulations/new`) or another. */
export function isSimulationPage(url: string | URL): boolean {
  return simulationIdIn(url) !== null;
}

/**
 * The id of the simulation whose page `url` shows (`/simulations/<id>`, where the form sends the
 * browser with the id the API answered). Throws on any other page, `/simulations/new` included.
 */
export function simulationIdOfPage(url: string): string {
  const id = simulationIdIn(url);
  if (id === null) throw new Error(`${url} is not a simulation's page.`);
  return id;
}
