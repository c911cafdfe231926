// npm run bench tick - the live tick and event ingestion on a fresh embedded database seeded
// with the demo lab: tick time for h100 (1,024 GPUs) with 2,000 pending jobs, and executor
// events per second through the same function as POST /api/v1/clusters/{name}/events.
import { spawnSync } from "node:child_process";

// The data layer is marked server-only: run under the react-server condition, as Next does.
if (!process.execArgv.some((arg) => arg.includes("react-server"))) {
  const result = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", import.meta.filename],
    { stdio: "inherit" },
  );
  process.exit(result.status ?? 1);
}

const PENDING = 2000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  const { startEmbeddedPostgres } = await import("../../lib/data/db/embedded-postgres");
  const { applyMigrations } = await import("../../lib/data/db/migrator");
  const { seedDemoLab } = await import("../../prisma/seed");
  const embedded = await startEmbeddedPostgres("memory://");
  process.env.DATABASE_URL = embedded.url;
  await applyMigrations(embedded.url);
  await seedDemoLab(embedded.url, { withHistory: false });
  const { getDb } = await import("../../lib/data/db/app-db");
  const { runTick } = await import("../../lib/data/tick/tick");
  const { ingestEvents } = await import("../../lib/data/executor");
  const { listDemoLeaves, listDriverClusters } = await import("../../lib/demo/executor/reads");
  const { buildArrivals } = await import("../../lib/demo/executor/arrivals");
  const db = getDb();

  const clusters = (await listDriverClusters()).filter((cluster) => cluster.name === "h100");
  const arrivals = buildArrivals(await listDemoLeaves(), clusters, 2026);
  const h100 = await db.cluster.findUniqueOrThrow({ where: { name: "h100" } });
  let next = 0;
  async function topUp(): Promise<void> {
    const pending = await db.job.count({ where: { clusterId: h100.id, state: "pending" } });
    const rows = [];
    for (let i = pending; i < PENDING; i += 1) {
      const arrival = arrivals[next++ % arrivals.length]!;
      rows.push({
        clusterId: h100.id,
        budgetId: arrival.input.budgetId,
        userId: arrival.userId,
        name: arrival.input.name,
        gpus: arrival.input.gpus,
        minRuntimeSec: arrival.input.minRuntimeSec,
        isResumable: arrival.input.isResumable,
        priority: arrival.input.priority,
        submittedAt: new Date(Date.now() - 3600_000 + next),
        workSec: arrival.input.workSec ?? null,
        remainingWorkSec: arrival.input.workSec ?? null,
      });
    }
    if (rows.length > 0) await db.job.createMany({ data: rows });
  }

  await topUp();
  const first = await runTick("h100");
  console.log(
    `first tick, empty h100 and ${PENDING} pending: ${first.durationMs} ms ` +
      `(${first.starts} starts, ${first.waitDecisions} wait decisions)`,
  );
  await topUp();
  const steady: number[] = [];
  const rewritten: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const result = await runTick("h100");
    steady.push(result.durationMs);
    rewritten.push(result.reasonsUpdated);
    if (i === 0) {
      console.log(
        `  after topping up to ${result.pending} pending: ${result.starts} starts, ` +
          `${result.preemptions} preemptions, ${result.waitDecisions} wait decisions, ` +
          `${result.reasonsUpdated} reasons rewritten`,
      );
    }
  }
  console.log(
    `steady tick, full h100 with ${PENDING} pending: median ${median(steady)} ms ` +
      `(min ${Math.min(...steady)}, max ${Math.max(...steady)}, ${steady.length} ticks; ` +
      `reasons rewritten per tick: ${rewritten.join(", ")})`,
  );

  const runIds = async () =>
    (
      await db.run.findMany({
        where: { clusterId: h100.id, endedAt: null },
        select: { id: true },
        orderBy: { startedAt: "asc" },
      })
    ).map((run) => run.id);
  async function post(label: string, batches: string[][], kind: "job.started" | "job.finished") {
    const began = performance.now();
    let count = 0;
    for (const runIds of batches) {
      await ingestEvents(
        "h100",
        runIds.map((runId) => ({ id: `bench-${kind}-${runId}`, kind, runId })),
      );
      count += runIds.length;
    }
    const seconds = (performance.now() - began) / 1000;
    console.log(
      `${label}: ${count} in ${seconds.toFixed(2)} s = ${(count / seconds).toFixed(1)} events/s`,
    );
  }
  const chunk = (ids: string[], size: number) =>
    Array.from({ length: Math.ceil(ids.length / size) }, (_, i) =>
      ids.slice(i * size, i * size + size),
    );

  const open = await runIds();
  await post(
    "job.started acknowledgements, batches of 50 (no tick needed)",
    chunk(open, 50),
    "job.started",
  );
  const again = await ingestEvents(
    "h100",
    open
      .slice(0, 50)
      .map((runId) => ({ id: `bench-job.started-${runId}`, kind: "job.started" as const, runId })),
  );
  console.log(
    `  the same batch again: ${again.results.filter((r) => r.outcome === "duplicate").length} duplicates`,
  );
  await post(
    "job.finished, batches of 20 (each batch frees GPUs, then one tick)",
    chunk(open.slice(0, 60), 20),
    "job.finished",
  );
  await post(
    "job.finished, one per request (each ticks)",
    chunk(open.slice(60, 80), 1),
    "job.finished",
  );
  const rest = open.slice(80, 140);
  const posters = 6;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: posters }, async (_, poster) => {
      for (let i = poster; i < rest.length; i += posters) {
        const runId = rest[i]!;
        await ingestEvents("h100", [{ id: `bench-c-${runId}`, kind: "job.finished", runId }]);
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  console.log(
    `job.finished, one per request from ${posters} concurrent posters (ticks coalesce): ` +
      `${rest.length} in ${seconds.toFixed(2)} s = ${(rest.length / seconds).toFixed(1)} events/s`,
  );
  await db.$disconnect();
  await embedded.stop();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
