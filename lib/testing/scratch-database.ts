// A second, migrated database for a database test that needs one to itself (a fresh lab, a
// tree of its own): a new database on the same server, or a new in-memory PGlite.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { startEmbeddedPostgres } from "../data/db/embedded-postgres";
import { applyMigrations } from "../data/db/migrator";

export type ScratchDatabase = { url: string; drop: () => Promise<void> };

/** Runs one statement on `url` with a connection of its own (CREATE / DROP DATABASE). */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates and migrates a scratch database beside `databaseUrl` (embedded: a new PGlite). */
export async function openScratchDatabase(
  databaseUrl: string,
  isEmbedded: boolean,
): Promise<ScratchDatabase> {
  if (isEmbedded) {
    const embedded = await startEmbeddedPostgres("memory://");
    await applyMigrations(embedded.url);
    return { url: embedded.url, drop: embedded.stop };
  }
  const name = `allot_scratch_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await adminQuery(databaseUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  return {
    url: url.toString(),
    drop: () => adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
