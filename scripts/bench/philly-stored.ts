// npx tsx scripts/bench/philly-stored.ts [--trace path] - the Philly simulation as the bundled
// worker runs it for the browser, without the server and the page: queues a Philly row in the
// bench database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/allot_bench,
// as scripts/bench/philly-browser.ts leaves it), runs `node .next/sim-worker/sim-worker.mjs` on
// it (bundled here first) and prints the worker's laps and the SHA-256 of what it stored: the
// summary and the unzipped report and timeline. Equal hashes on two commits mean identical
// results. The row is deleted afterwards (scripts/bench/lib/bench-simulations.ts).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { loadavg } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { buildWorkerBundle } from "../build-worker";
import { insertBenchSimulation, removeBenchSimulations } from "./lib/bench-simulations";

const args = process.argv.slice(2);
const at = args.indexOf("--trace");
const TRACE = path.resolve(
  at >= 0
    ? args[at + 1]!
    : (process.env.ALLOT_PHILLY_CSV ??
        path.join(import.meta.dirname, "../../../shared/traces/philly.csv")),
);
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/allot_bench";

const sha = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

const { workerPath } = await buildWorkerBundle();
const client = new pg.Client({ connectionString: DATABASE_URL });
await client.connect();
try {
  const user = await client.query<{ id: string }>("SELECT id FROM users ORDER BY id LIMIT 1");
  if (!user.rows[0]) throw new Error("No user in the bench database: run philly-browser.ts once.");
  const id = await insertBenchSimulation(client, user.rows[0].id);
  try {
    await measure(id);
  } finally {
    await removeBenchSimulations(client, [id]);
    console.log(`simulation ${id} deleted from the bench database`);
  }
} finally {
  await client.end();
}

/** Runs the worker on simulation `id` and prints its laps and the hashes of what it stored. */
async function measure(id: string): Promise<void> {
  const loadBefore = loadavg()[0]!.toFixed(1);
  const run = spawnSync(process.execPath, [workerPath, id], {
    env: { ...process.env, DATABASE_URL, ALLOT_PHILLY_CSV: TRACE },
    encoding: "utf8",
  });
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  const { rows } = await client.query<{
    status: string;
    summaryJson: unknown;
    reportGz: Buffer | null;
    timelineGz: Buffer | null;
  }>(`SELECT status, "summaryJson", "reportGz", "timelineGz" FROM simulations WHERE id = $1`, [id]);
  const row = rows[0]!;
  if (row.status !== "done" || !row.reportGz || !row.timelineGz) {
    throw new Error(`The simulation ended ${row.status}.`);
  }
  console.log(`load average ${loadBefore} -> ${loadavg()[0]!.toFixed(1)}`);
  console.log(`summary  sha256 ${sha(JSON.stringify(row.summaryJson))}`);
  console.log(
    `report   sha256 ${sha(gunzipSync(row.reportGz))} (${row.reportGz.length} bytes gzip)`,
  );
  console.log(
    `timeline sha256 ${sha(gunzipSync(row.timelineGz))} (${row.timelineGz.length} bytes gzip)`,
  );
}
