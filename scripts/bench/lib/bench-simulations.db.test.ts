import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "../../../lib/data/db/client";
import {
  claimSimulation,
  completeSimulation,
  insertSimulation,
  storeSimulationTimeline,
} from "../../../lib/simulations/store/simulation-store";
import { insertBenchSimulation, removeBenchSimulations } from "./bench-simulations";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const client = new pg.Client({ connectionString: databaseUrl });
const MB = 1_000_000;
let benchUserId = "";
let otherUserId = "";

beforeAll(async () => {
  await client.connect();
  const users = await db.user.createManyAndReturn({
    data: [
      { email: "bench-user@bench.test", name: "Bench user" },
      { email: "other-user@bench.test", name: "Other user" },
    ],
    select: { id: true },
  });
  [benchUserId, otherUserId] = users.map((user) => user.id) as [string, string];
});
afterAll(async () => {
  await db.user.deleteMany({ where: { id: { in: [benchUserId, otherUserId] } } }); // cascades
  await client.end();
  await db.$disconnect();
});

/** Runs a queued simulation's row to done the way the worker does, with ~8 MB of results. */
async function storePhillyResults(id: string): Promise<void> {
  expect(await claimSimulation(db, id)).not.toBeNull();
  // Random bytes: like gzip output, nothing for Postgres to compress.
  await storeSimulationTimeline(db, id, new Uint8Array(randomBytes(6 * MB)));
  await completeSimulation(db, id, {
    summary: { jobCount: 82_247 },
    reportGz: new Uint8Array(randomBytes(2 * MB)),
  });
}

/** The form's POST (lib/simulations/start/start-simulation.ts) stores a Philly run like this. */
function insertFromForm(userId: string, name = "Philly trace"): Promise<string> {
  return insertSimulation(db, { userId, name, source: "philly", options: {} });
}

async function tableBytes(): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>(
    "SELECT pg_total_relation_size('simulations') AS bytes",
  );
  return Number(rows[0]!.bytes);
}

describe("removeBenchSimulations", () => {
  it("deletes the rows both Philly benches started, results and all, and keeps every other row", async () => {
    const stored = await insertBenchSimulation(client, benchUserId); // philly-stored.ts
    const fromForm = await insertFromForm(benchUserId); // philly-browser.ts, through the page
    await storePhillyResults(stored);
    await storePhillyResults(fromForm);
    const others = [
      await insertFromForm(otherUserId), // someone else's Philly run, done
      await insertFromForm(benchUserId, "Philly (philly-stored bench)"), // same user and name
      await insertFromForm(benchUserId), // queued
    ];
    await storePhillyResults(others[0]!);
    await storePhillyResults(others[1]!);

    expect(await removeBenchSimulations(client, [stored, fromForm])).toBe(2);

    const left = await db.simulation.findMany({
      where: { userId: { in: [benchUserId, otherUserId] } },
      select: { id: true, status: true, timelineGz: true, reportGz: true },
    });
    expect(
      left.map((row) => [row.id, row.status, row.timelineGz?.length, row.reportGz?.length]).sort(),
    ).toEqual(
      [
        [others[0], "done", 6 * MB, 2 * MB],
        [others[1], "done", 6 * MB, 2 * MB],
        [others[2], "queued", undefined, undefined],
      ].sort(),
    );
    await db.simulation.deleteMany({ where: { id: { in: others } } });
  });

  it("deletes nothing when given no ids or ids no row has", async () => {
    const kept = await insertFromForm(otherUserId);
    expect(await removeBenchSimulations(client, [])).toBe(0);
    expect(await removeBenchSimulations(client, ["bench-not-there", ""])).toBe(0);
    expect(await db.simulation.count({ where: { id: kept } })).toBe(1);
    await db.simulation.delete({ where: { id: kept } });
  });

  it("keeps the table from growing over repeated bench runs: each run reuses the last one's space", async () => {
    const beforeBytes = await tableBytes();
    const growthMb: number[] = [];
    for (let run = 0; run < 4; run++) {
      const id = await insertBenchSimulation(client, benchUserId);
      await storePhillyResults(id);
      expect(await removeBenchSimulations(client, [id])).toBe(1);
      growthMb.push(Math.max(0, Math.round(((await tableBytes()) - beforeBytes) / MB)));
    }
    // Deleted without the VACUUM, the rows' space is not reused yet: [8, 17, 25, 33].
    expect(growthMb).toEqual([0, 0, 0, 0]);
  });
});
