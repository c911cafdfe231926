// npm run bench review - the monthly review's data path on a fresh database seeded with the
// demo lab and its 35-day history: the seed (simulation + storing), a full roll-up rebuild, and
// the tick's roll-up refresh, and the server time of loadPeriodReview for the last 30 days on
// 3 clusters (target <= 300 ms). With DATABASE_URL and a production build, it then serves that
// database and times, as the demo's program lead, the review page and its CSV for the last full
// month against the overview page (#35: each within 3x of the overview's time), and the first
// request of each (before any cache of the server's held it); BENCH_PORT picks the server's port.
// A new database on DATABASE_URL's server when it is set, else the embedded PGlite in memory.
import { existsSync } from "node:fs";
import path from "node:path";
import { createPrismaClient } from "../../lib/data/db/client";
import { DEMO_USERS } from "../../lib/demo/lab-org";
import { lastFullMonth } from "../../lib/reports/review-period";
import { startProductionServer } from "../../lib/testing/production-server";
import { openScratchDatabase } from "../../lib/testing/scratch-database";
import { loadPeriodReview } from "../../lib/data/review";
import { rebuildRollups, refreshClusterRollups } from "../../lib/data/tick/rollups";
import { seedDemoLab } from "../../prisma/seed";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
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

/** A demo user's session cookie, through the demo sign-in as a browser does it. */
async function signIn(base: string, email: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = csrf.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
  const response = await fetch(`${base}/api/auth/callback/demo`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email, json: "true" }),
  });
  cookies.push(...response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]));
  return cookies.join("; ");
}

/**
 * The overview page, the review page and the review's CSV, served by a production server on
 * `databaseUrl`: each fetched in turn (so that a busy moment slows all three), the time to the
 * last byte on this machine.
 */
async function benchPages(databaseUrl: string, nowSec: number): Promise<void> {
  const port = Number(process.env.BENCH_PORT ?? 3700 + Math.floor(Math.random() * 200));
  const server = await startProductionServer(port, {
    env: { DATABASE_URL: databaseUrl, ALLOT_DEMO: "1", NEXTAUTH_SECRET: "bench-review" },
  });
  try {
    const cookie = await signIn(server.url, DEMO_USERS.programLead.email);
    const month = lastFullMonth(nowSec).month;
    const targets = [
      { name: "overview page", url: "/", mark: "Budget tree" },
      { name: "review page", url: `/review?month=${month}`, mark: "Per budget" },
      { name: "review CSV", url: `/api/v1/reports/review.csv?month=${month}`, mark: "path," },
    ];
    const times = new Map(targets.map((target) => [target.name, [] as number[]]));
    const firstMs = new Map<string, number>();
    for (let i = 0; i <= RUNS; i += 1) {
      for (const target of targets) {
        const startedMs = performance.now();
        const response = await fetch(`${server.url}${target.url}`, { headers: { cookie } });
        const body = await response.text();
        if (response.status !== 200 || !body.includes(target.mark))
          throw new Error(`${target.url} answered ${response.status}: ${body.slice(0, 200)}`);
        if (i > 0) times.get(target.name)!.push(performance.now() - startedMs);
        else firstMs.set(target.name, performance.now() - startedMs);
      }
    }
    const overviewMs = median(times.get("overview page")!);
    for (const target of targets) {
      const samples = times.get(target.name)!;
      console.log(
        `${target.name}, ${month}, 3 clusters: median ${median(samples).toFixed(0)} ms ` +
          `(min ${Math.min(...samples).toFixed(0)}, max ${Math.max(...samples).toFixed(0)}), ` +
          `${(median(samples) / overviewMs).toFixed(2)}x the overview page (target <= 3x); ` +
          `first request ${firstMs.get(target.name)!.toFixed(0)} ms`,
      );
    }
  } finally {
    await server.stop();
  }
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
    if (!process.env.DATABASE_URL?.trim() || !existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
      console.log("pages: skipped (they need DATABASE_URL and `npm run build`)");
    } else {
      await benchPages(database.url, Math.floor(Date.now() / 1000));
    }
  } finally {
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
