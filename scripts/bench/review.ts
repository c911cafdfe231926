// npm run bench review - the monthly review's data path on a fresh database seeded with the
// demo lab and its 35-day history: the seed (simulation + storing), a full roll-up rebuild, and
// the tick's roll-up refresh, and the server time of loadPeriodReview for the last 30 days on
// 3 clusters (target <= 300 ms).
// A new database on DATABASE_URL's server when it is set, else the embedded PGlite in memory.
import { createPrismaClient } from "../../lib/data/client";
import { openScratchDatabase } from "../../lib/testing/scratch-database";
import { loadPeriodReview } from "../../lib/data/review";
import { rebuildRollups, refreshClusterRollups } from "../../lib/data/rollups";
import { seedDemoLab } from "../../prisma/seed";

const RUNS = 10;
const DAY_SEC = 86_400;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function openFreshDatabase(): Promise<{
  url: string;
  label: string;
  drop: () => Promise<void>;
}> {
  const serverUrl = process.env.DATABASE_URL?.trim();
  const scratch = serverUrl
    ? await openScratchDatabase(serverUrl, false)
    : await openScratchDatabase("", true);
  return { ...scratch, label: serverUrl ? "PostgreSQL" : "embedded PGlite (memory)" };
}

async function main(): Promise<void> {
  const database = await openFreshDatabase();
  try {
    const seedStartMs = performance.now();
    const summary = await seedDemoLab(database.url);
    const seedMs = performance.now() - seedStartMs;
    console.log(`database: ${database.label}`);
    console.log(`seed: ${(seedMs / 1000).toFixed(1)} s (${summary})`);

    const db = createPrismaClient(database.url, 4);
    try {
      const rebuilt = await rebuildRollups(db);
      console.log(
        `rollup rebuild: ${(rebuilt.durationMs / 1000).toFixed(1)} s, ${rebuilt.rows} rows, ` +
          `${rebuilt.clusters.map((c) => `${c.name} ${c.hours} h`).join(", ")}`,
      );
      // The tick's extra work: refreshing h100's hours since a tick 5 s earlier (rolled back).
      const h100 = await db.cluster.findUniqueOrThrow({ where: { name: "h100" } });
      const nowMs = (await db.job.aggregate({ _max: { endedAt: true } }))._max.endedAt!.getTime();
      const refreshTimes: number[] = [];
      for (let i = 0; i <= RUNS; i += 1) {
        const startedMs = performance.now();
        await db
          .$transaction(async (tx) => {
            await refreshClusterRollups(tx, h100.id, new Date(nowMs - 5000), new Date(nowMs));
            throw new Error("rollback");
          })
          .catch(() => undefined);
        if (i > 0) refreshTimes.push(performance.now() - startedMs);
      }
      console.log(
        `tick roll-up refresh, h100, 5 s after the last tick: median ${median(refreshTimes).toFixed(0)} ms`,
      );
      const last = await db.usageHourly.aggregate({ _max: { hourStart: true } });
      const toSec = Math.floor((last._max.hourStart?.getTime() ?? Date.now()) / 1000) + 3600;
      const fromSec = toSec - 30 * DAY_SEC;
      const times: number[] = [];
      const cpuTimes: number[] = [];
      let nodes = 0;
      for (let i = 0; i <= RUNS; i += 1) {
        const startedMs = performance.now();
        const cpu = process.cpuUsage();
        const review = await loadPeriodReview(db, { fromSec, toSec });
        const used = process.cpuUsage(cpu);
        if (i > 0) times.push(performance.now() - startedMs);
        if (i > 0) cpuTimes.push((used.user + used.system) / 1000);
        nodes = review.report.nodes.length;
      }
      const perCluster: string[] = [];
      for (const cluster of ["h100", "b200", "b300"]) {
        const clusterTimes: number[] = [];
        for (let i = 0; i <= 3; i += 1) {
          const startedMs = performance.now();
          await loadPeriodReview(db, { fromSec, toSec, cluster });
          if (i > 0) clusterTimes.push(performance.now() - startedMs);
        }
        perCluster.push(`${cluster} ${median(clusterTimes).toFixed(0)} ms`);
      }
      console.log(
        `loadPeriodReview, 30 days, 3 clusters, ${nodes} nodes: median ${median(times).toFixed(0)} ms ` +
          `(min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}; target <= 300 ms), ` +
          `this process's CPU ${median(cpuTimes).toFixed(0)} ms; ` +
          `one cluster: ${perCluster.join(", ")}`,
      );
    } finally {
      await db.$disconnect();
    }
  } finally {
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
