// Two production servers on one PostgreSQL (issue #33, point 7; docs/deploy.md): both start at
// once on an empty database, which is migrated and seeded once; exactly one holds the leader lease
// and runs the tick timer and the demo executor while both serve and tick a cluster under
// load (the per-cluster advisory lock keeps their passes apart); when the leader's whole process
// group is killed, the other takes the lease and the timers and driver move again within a
// minute. Real PostgreSQL only: PGlite is a single session, where advisory locks never wait.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { DEMO_USERS } from "../lib/demo/lab-org";
import { createPrismaClient } from "../lib/data/db/client";
import { createPersonalToken } from "../lib/demo/seed-org";
import { startProductionServer, type ProductionServer } from "../lib/testing/production-server";
import { adminQuery } from "../lib/testing/scratch-database";
import { freePort } from "./fixtures";

const SERVER_URL = process.env.E2E_DATABASE_URL;
const METRICS_TOKEN = "e2e-replicas-metrics-token-5c81a7f0";
/** The cluster both servers tick under load (11 nodes of 8 GPUs: quick passes). */
const CONTENDED = "b300";

let databaseName = "";
let databaseUrl = "";
let env: Record<string, string> = {};
let nextPort = 0;
let sql: pg.Client;
let servers: ProductionServer[] = [];
let leader: ProductionServer;
let follower: ProductionServer;

test.describe.configure({ mode: "serial" });
if (!SERVER_URL && process.env.CI) {
  // CI always has the machine's PostgreSQL: a missing URL there is a broken run, not a skip.
  throw new Error("CI must give the replicas test a real PostgreSQL (E2E_DATABASE_URL)");
}
test.skip(!SERVER_URL, "two replicas need a real PostgreSQL (E2E_DATABASE_URL; CI sets it)");

async function rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await sql.query(text, values)).rows as T[];
}

async function health(server: ProductionServer): Promise<{ replica?: string }> {
  const response = await fetch(`${server.url}/api/v1/health`, {
    signal: AbortSignal.timeout(5000),
  });
  return (await response.json()) as { replica?: string };
}

/** Sum of a metric's samples whose labels include `labels` (0 when there is none). */
async function metric(
  server: ProductionServer,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  let sum = 0;
  for (const line of (await response.text()).split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const set = match[2] ?? "";
    if (Object.entries(labels).every(([key, value]) => set.includes(`${key}="${value}"`))) {
      sum += Number(match[3]);
    }
  }
  return sum;
}

/** The lines of a server's JSON log with this `msg`. */
function logLines(server: ProductionServer, msg: string): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);
}

function holderOf(server: ProductionServer): string {
  const line = logLines(server, "lease: this replica's holder id")[0];
  expect(line, server.output()).toBeDefined();
  return String(line!.holder);
}

test.beforeAll(async () => {
  test.setTimeout(420_000);
  databaseName = `allot_replicas_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await adminQuery(SERVER_URL!, `CREATE DATABASE "${databaseName}"`);
  const url = new URL(SERVER_URL!);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  const firstPort = await freePort(Number(process.env.E2E_PORT ?? 3210) + 5);
  const secondPort = await freePort(firstPort + 1);
  nextPort = secondPort + 1;
  env = {
    DATABASE_URL: databaseUrl,
    ALLOT_DEMO: "1",
    NEXTAUTH_SECRET: "e2e-replicas-nextauth-secret-0f9e2b7a",
    ALLOT_LIVE_SPEED: "60",
    ALLOT_TICK_SEC: "2",
    ALLOT_METRICS_TOKEN: METRICS_TOKEN,
    LOG_LEVEL: "info",
    // What is tested here needs the lab, not its month: 2 days seed in seconds, not 35 in ~40 s.
    ALLOT_DEMO_HISTORY_DAYS: "2",
    // A 12 s lease (renewals every 4 s): the failover below waits 8-16 s, not 20-40 s. The
    // lease's logic is the same at any TTL (lib/leader/leadership.ts leaseTimes).
    ALLOT_LEASE_TTL_SEC: "12",
  };
  // Both at once on an empty database: the second waits for the first's demo seed.
  const started = await Promise.allSettled(
    [firstPort, secondPort].map((port) =>
      startProductionServer(port, { env, startTimeoutMs: 360_000 }),
    ),
  );
  servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failure = started.find((result) => result.status === "rejected");
  if (failure) throw (failure as PromiseRejectedResult).reason;
});

test.afterAll(async () => {
  for (const server of servers) await server.stop();
  await sql?.end();
  if (databaseName) {
    await adminQuery(SERVER_URL!, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  }
});

test("two servers started at once on an empty database migrate and seed it once", async () => {
  const outputs = servers.map((server) => server.output());
  expect(outputs.filter((output) => /^migrated: /m.test(output))).toHaveLength(1);
  expect(outputs.filter((output) => output.includes("; history of "))).toHaveLength(1);
  const [migrations] = await rows<{ applied: number; rolledBack: number; names: number }>(
    `SELECT count(*)::int AS applied, count(rolled_back_at)::int AS "rolledBack",
            count(DISTINCT migration_name)::int AS names FROM _prisma_migrations`,
  );
  expect(migrations!.rolledBack).toBe(0);
  expect(migrations!.names).toBe(migrations!.applied);
  // The lab once: its four demo users, its clusters' nodes once each.
  const [lab] = await rows<{ users: number; duplicateNodes: number }>(
    `SELECT (SELECT count(*)::int FROM users WHERE email = ANY($1)) AS users,
            (SELECT count(*)::int FROM (SELECT "clusterId", index FROM cluster_nodes
               GROUP BY 1, 2 HAVING count(*) > 1) AS d) AS "duplicateNodes"`,
    [Object.values(DEMO_USERS).map((user) => user.email)],
  );
  expect(lab).toEqual({ users: 4, duplicateNodes: 0 });
});

test("exactly one leads: it alone runs the timer and the driver, both serve and tick", async () => {
  test.setTimeout(180_000);
  const replicas = await Promise.all(servers.map(async (server) => (await health(server)).replica));
  expect([...replicas].sort()).toEqual(["follower", "leader"]);
  leader = servers[replicas.indexOf("leader")]!;
  follower = servers[replicas.indexOf("follower")]!;
  const [lease] = await rows<{ holder: string }>(`SELECT holder FROM leases WHERE name = 'live'`);
  expect(lease!.holder).toBe(holderOf(leader));
  expect(holderOf(follower)).not.toBe(lease!.holder);
  expect(await metric(leader, "allot_leader")).toBe(1);
  expect(await metric(follower, "allot_leader")).toBe(0);
  expect(
    logLines(follower, "lease taken: this replica leads (the `leader:` line says what it runs)"),
  ).toHaveLength(0);

  // Load on both: the same cluster's jobs posted to both servers at the same moment, each post
  // followed by a tick of that cluster in the server that took it.
  const db = createPrismaClient(databaseUrl, 2);
  const riley = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.researcher.email } });
  const token = await createPersonalToken(db, riley.id, "e2e replicas");
  const budget = await db.budgetNode.findFirstOrThrow({ where: { name: "lm-pretrain" } });
  await db.$disconnect();
  const submit = (server: ProductionServer, round: number) =>
    fetch(`${server.url}/api/v1/jobs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        cluster: CONTENDED,
        budgetId: budget.id,
        name: `replica load ${round}`,
        gpus: 1 + (round % 8),
        minRuntimeSec: 600,
      }),
    }).then((response) => response.status);
  for (let round = 0; round < 25; round += 1) {
    const statuses = await Promise.all([submit(leader, round), submit(follower, round)]);
    expect(statuses).toEqual([201, 201]);
  }

  // Both ran passes of the contended cluster; where they met, one skipped (locked).
  const ran = await Promise.all(
    servers.map((server) =>
      metric(server, "allot_ticks_total", { cluster: CONTENDED, outcome: "ran" }),
    ),
  );
  expect(Math.min(...ran)).toBeGreaterThan(0);
  const locked = await Promise.all(
    servers.map((server) =>
      metric(server, "allot_ticks_total", { cluster: CONTENDED, outcome: "locked" }),
    ),
  );
  expect(locked[0]! + locked[1]!).toBeGreaterThan(0);
  // Clusters nobody posted to tick only by the timer and the driver: on the leader alone.
  for (const cluster of ["h100", "b200"]) {
    expect(await metric(leader, "allot_ticks_total", { cluster, outcome: "ran" })).toBeGreaterThan(
      0,
    );
    expect(await metric(follower, "allot_ticks_total", { cluster })).toBe(0);
  }
  expect(await metric(leader, "allot_executor_events_total")).toBeGreaterThan(0);
  expect(await metric(follower, "allot_executor_events_total")).toBe(0);

  // What two passes deciding at once would break: a job started twice, a job with two open
  // runs, runs of one job overlapping, a node's GPUs given twice.
  const [checks] = await rows<Record<string, number>>(
    `SELECT
       (SELECT count(*)::int FROM (SELECT "runId" FROM decisions WHERE kind = 'start'
          GROUP BY 1 HAVING count(*) > 1) AS d) AS "runsStartedTwice",
       (SELECT count(*)::int FROM (SELECT "jobId" FROM runs WHERE "endedAt" IS NULL
          GROUP BY 1 HAVING count(*) > 1) AS d) AS "jobsWithTwoOpenRuns",
       (SELECT count(*)::int FROM runs a JOIN runs b ON a."jobId" = b."jobId" AND a.id < b.id
          WHERE a."startedAt" < coalesce(b."endedAt", 'infinity')
            AND b."startedAt" < coalesce(a."endedAt", 'infinity')) AS "overlappingRuns",
       (SELECT count(*)::int FROM (
          SELECT r."clusterId", (slice->>'node')::int AS node, sum((slice->>'gpus')::int) AS gpus
            FROM runs r, jsonb_array_elements(r.placement) AS slice
           WHERE r."endedAt" IS NULL GROUP BY 1, 2) AS held
          JOIN cluster_nodes n ON n."clusterId" = held."clusterId" AND n.index = held.node
          WHERE held.gpus > n.gpus) AS "overfullNodes"`,
  );
  expect(checks).toEqual({
    runsStartedTwice: 0,
    jobsWithTwoOpenRuns: 0,
    overlappingRuns: 0,
    overfullNodes: 0,
  });
  const [started] = await rows<{ starts: number; runs: number }>(
    `SELECT (SELECT count(*)::int FROM decisions d JOIN clusters c ON c.id = d."clusterId"
              WHERE c.name = $1 AND d.kind = 'start' AND d."runId" IS NOT NULL) AS starts,
            (SELECT count(*)::int FROM runs r JOIN clusters c ON c.id = r."clusterId"
              WHERE c.name = $1) AS runs`,
    [CONTENDED],
  );
  expect(started!.starts).toBe(started!.runs);
});

test("SIGKILL of the leader's process group: the other leads and moves within a minute", async () => {
  test.setTimeout(180_000);
  const survivor = follower;
  const deadHolder = holderOf(leader);
  const survivorHolder = holderOf(survivor);
  const eventsBefore = await metric(survivor, "allot_executor_events_total");
  const killedMs = Date.now();
  process.kill(-leader.pid, "SIGKILL");

  let leaseMs = 0;
  let movingMs = 0;
  while (Date.now() - killedMs < 90_000 && movingMs === 0) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (leaseMs === 0) {
      const [lease] = await rows<{ holder: string }>(
        `SELECT holder FROM leases WHERE name = 'live'`,
      );
      if (lease?.holder === survivorHolder) leaseMs = Date.now() - killedMs;
      continue;
    }
    // After the takeover nobody posts anything: the survivor's passes of h100 and its
    // executor events come from its own timer and driver.
    const timerTicks = await metric(survivor, "allot_ticks_total", {
      cluster: "h100",
      outcome: "ran",
    });
    const events = await metric(survivor, "allot_executor_events_total");
    if (timerTicks > 0 && events > eventsBefore) movingMs = Date.now() - killedMs;
  }
  console.log(
    `failover: the survivor held the lease ${(leaseMs / 1000).toFixed(1)} s after the kill; ` +
      `its timer and driver were moving after ${(movingMs / 1000).toFixed(1)} s`,
  );
  expect(leaseMs).toBeGreaterThan(0);
  expect(movingMs).toBeGreaterThan(0);
  expect(movingMs).toBeLessThan(60_000);
  expect((await health(survivor)).replica).toBe("leader");
  expect(await metric(survivor, "allot_leader")).toBe(1);
  const taken = logLines(
    survivor,
    "lease taken: this replica leads (the `leader:` line says what it runs)",
  );
  expect(taken.map((line) => line.previousHolder)).toEqual([deadHolder]);
});

test("a third replica leaves the clock alone; a clean stop hands the lease over at once", async () => {
  test.setTimeout(300_000);
  const current = follower; // the leader since the failover
  const clock = () => rows(`SELECT "realAt", "simAt", speed FROM app_clock`);
  const clockBefore = await clock();
  const third = await startProductionServer(await freePort(nextPort), {
    env,
    startTimeoutMs: 240_000,
  });
  servers.push(third);
  expect((await health(third)).replica).toBe("follower");
  expect(await clock()).toEqual(clockBefore);

  // SIGTERM: the leader releases its lease before it closes; without that the third would
  // wait for the lease to expire, 2/3 to 1 TTL after the last renewal (8-12 s here). The lease
  // as it stood at SIGTERM: the third must take it before that expiry, which only a release
  // allows, at any TTL.
  const [leaseAtStop] = await rows<{ expiresAt: Date }>(
    `SELECT "expiresAt" FROM leases WHERE name = 'live'`,
  );
  const stoppingMs = Date.now();
  await current.stop();
  let handoverMs = 0;
  let acquiredAt: Date | null = null;
  while (Date.now() - stoppingMs < 60_000) {
    const [lease] = await rows<{ holder: string; acquiredAt: Date }>(
      `SELECT holder, "acquiredAt" FROM leases WHERE name = 'live'`,
    );
    if (lease?.holder === holderOf(third)) {
      handoverMs = Date.now() - stoppingMs;
      acquiredAt = lease.acquiredAt;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.log(
    `handover: the third replica held the lease ${(handoverMs / 1000).toFixed(1)} s after SIGTERM`,
  );
  expect(logLines(current, "lease released"), current.output().slice(-3000)).toHaveLength(1);
  expect(handoverMs).toBeGreaterThan(0);
  expect(handoverMs).toBeLessThan(15_000);
  expect(acquiredAt!.getTime()).toBeLessThan(leaseAtStop!.expiresAt.getTime());
  expect((await health(third)).replica).toBe("leader");
});
