// The live queue reads a cluster's ranking, its pending jobs and its runs in one snapshot: a tick
// that commits between those reads must not pair its places with the previous tick's ranking.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { removeTestCluster } from "../testing/remove-cluster";
import { DEMO_USERS } from "../demo/lab-org";
import { getDb } from "./db/app-db";
import { getClusterQueue } from "./queue";
import type { RankingRow } from "./tick/ranking";
import { noteLocalTick } from "./tick/tick-cache";

const databaseUrl = inject("databaseUrl");
const isEmbedded = inject("isEmbeddedDatabase");
const CLUSTER = "zz-snapshot";
let clusterId = "";
let rootId = "";
let leafId = "";

/** A ranking as a tick stores it: the root, and lm-pretrain at `rank`. */
function rankingAt(rank: number): RankingRow[] {
  const row = (id: string, path: string, isLeaf: boolean): RankingRow => ({
    id,
    path,
    name: path.split("/").at(-1) ?? "",
    depth: path === "" ? 0 : path.split("/").length,
    isLeaf,
    effectiveShare: 0.1,
    usageGpuSeconds: 0,
    usageRatio: 0.5,
    rank: isLeaf ? rank : null,
    parentId: isLeaf ? rootId : null,
  });
  return [row(rootId, "", false), row(leafId, "language/lm-pretrain", true)];
}

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const db = getDb();
  await removeTestCluster(db, CLUSTER);
  rootId = (await db.budgetNode.findFirstOrThrow({ where: { name: "lab" } })).id;
  leafId = (await db.budgetNode.findFirstOrThrow({ where: { name: "lm-pretrain" } })).id;
  const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.researcher.email } });
  // What tick 1 wrote: lm-pretrain ranked 1st, its job 1st in the queue.
  const cluster = await db.cluster.create({
    data: {
      name: CLUSTER,
      gpuType: "test",
      nodes: { create: [{ index: 0, gpus: 8 }] },
      ranking: rankingAt(1),
      tickedAt: new Date(),
    },
  });
  clusterId = cluster.id;
  await db.job.create({
    data: {
      clusterId,
      budgetId: leafId,
      userId: user.id,
      name: "snapshot test",
      gpus: 16,
      minRuntimeSec: 3600,
      isResumable: true,
      queuePosition: 1,
    },
  });
});

afterAll(async () => {
  await removeTestCluster(getDb(), CLUSTER);
  await getDb().$disconnect();
});

/** Waits until some statement waits for a lock on the jobs table (the queue's read of them). */
async function waitForJobsLockWait(client: pg.Client): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { rows } = await client.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_locks
        WHERE relation = 'jobs'::regclass AND NOT granted`,
    );
    if ((rows[0]?.waiting ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("The queue never read the jobs table.");
}

describe("the live queue", () => {
  it("answers through its RepeatableRead transaction, which PGlite accepts too", async () => {
    const queue = await getClusterQueue(CLUSTER);
    expect(queue.pending.map((job) => [job.position, job.rank])).toEqual([[1, 1]]);
    expect(queue.cluster).toMatchObject({ name: CLUSTER, gpus: 8, pendingJobs: 1 });
  });

  // PGlite serialises transactions: a second client cannot commit while the queue reads.
  it.skipIf(isEmbedded)(
    "keeps the first read's snapshot when a tick commits between its reads",
    async () => {
      const tick = new pg.Client({ connectionString: databaseUrl });
      await tick.connect();
      try {
        // Tick 2 holds the jobs table, so the queue reads its cluster row and then waits.
        await tick.query("BEGIN");
        await tick.query("LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE");
        // A new version, so the queue is read again rather than served from the first test.
        await getDb().cluster.update({ where: { id: clusterId }, data: { tickedAt: new Date() } });
        noteLocalTick();
        const reading = getClusterQueue(CLUSTER);
        await waitForJobsLockWait(tick);
        // Tick 2 ranks lm-pretrain 2nd and moves its job to 2nd place, then commits.
        await tick.query(`UPDATE clusters SET ranking = $1::jsonb WHERE id = $2`, [
          JSON.stringify(rankingAt(2)),
          clusterId,
        ]);
        await tick.query(`UPDATE jobs SET "queuePosition" = 2 WHERE "clusterId" = $1`, [clusterId]);
        await tick.query("COMMIT");
        const queue = await reading;
        // All of tick 1: not tick 2's place beside tick 1's rank.
        expect(queue.pending.map((job) => [job.position, job.rank])).toEqual([[1, 1]]);
      } finally {
        await tick.end();
      }
    },
  );
});
