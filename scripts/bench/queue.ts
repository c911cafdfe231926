// npm run bench queue - the live queue under many readers: the production demo (demo executor on)
// on a scratch Postgres database, then autocannon against GET /api/v1/clusters/h100/queue and,
// in the same run, GET /api/v1/health, at 20 and 100 connections. Machines here differ by up to
// 3x, so the figure that matters is the ratio of the queue's p99 to health's in one run (#35:
// within 3x at 100 connections). Needs DATABASE_URL (a PostgreSQL server) and `npm run build`;
// BENCH_PORT picks the server's port.
import autocannon from "autocannon";
import { createPrismaClient } from "../../lib/data/db/client";
import { createDemoAdminToken } from "../../lib/testing/demo-admin-token";
import { startProductionServer } from "../../lib/testing/production-server";
import { openScratchDatabase } from "../../lib/testing/scratch-database";
import { seedDemoLab } from "../../prisma/seed";

const DURATION_SEC = 10;
const CONNECTIONS = [20, 100];

type Figures = { requestsPerSec: number; p50Ms: number; p99Ms: number; errors: number };

async function load(url: string, connections: number, token: string): Promise<Figures> {
  const result = await autocannon({
    url,
    connections,
    duration: DURATION_SEC,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** BENCH_PORT when given (machines shared by several people hand out port ranges), else 37xx-38xx. */
function benchPort(): number {
  const given = process.env.BENCH_PORT?.trim();
  if (!given) return 3700 + Math.floor(Math.random() * 200);
  const port = Number(given);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    throw new Error(`BENCH_PORT must be a port number, got "${given}"`);
  return port;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL?.trim();
  if (!serverUrl)
    throw new Error("Set DATABASE_URL to a PostgreSQL server (a scratch database is made on it).");
  const database = await openScratchDatabase(serverUrl, false);
  const server = await (async () => {
    console.log(`seed: ${await seedDemoLab(database.url)}`);
    const db = createPrismaClient(database.url, 2);
    const token = await createDemoAdminToken(db, "bench");
    await db.$disconnect();
    const started = await startProductionServer(benchPort(), {
      env: {
        DATABASE_URL: database.url,
        ALLOT_DEMO: "1",
        ALLOT_LIVE_SPEED: "60",
        ALLOT_TICK_SEC: "5",
      },
    });
    return { ...started, token };
  })();
  try {
    // Let the demo executor run a few rounds first.
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    console.log(`| connections | route | req/s | p50 ms | p99 ms | errors |`);
    console.log(`|---|---|---|---|---|---|`);
    for (const connections of CONNECTIONS) {
      const health = await load(`${server.url}/api/v1/health`, connections, server.token);
      const queue = await load(
        `${server.url}/api/v1/clusters/h100/queue`,
        connections,
        server.token,
      );
      for (const [route, figures] of [
        ["health", health],
        ["h100 queue", queue],
      ] as const) {
        console.log(
          `| ${connections} | ${route} | ${figures.requestsPerSec} | ${figures.p50Ms} | ${figures.p99Ms} | ${figures.errors} |`,
        );
      }
      console.log(
        `queue p99 / health p99 at ${connections}: ${(queue.p99Ms / Math.max(1, health.p99Ms)).toFixed(2)}x`,
      );
    }
  } finally {
    await server.stop();
    await database.drop();
  }
}

await main();
