// The live queue's "Waiting" counts from submission, or, for a job requeued after a run, from
// that run's end: a job that ran for hours has not waited since it was submitted.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { DEMO_USERS } from "../demo/lab-org";
import { getDb } from "./db/app-db";
import { getNow } from "./db/clock";
import { getClusterQueue } from "./queue";

const databaseUrl = inject("databaseUrl");
const HOUR_MS = 3_600_000;
const ids: string[] = [];

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
});
afterAll(async () => {
  await getDb().job.deleteMany({ where: { id: { in: ids } } });
});

describe("the live queue's waiting time", () => {
  it("is since submission, or since the last run ended for a requeued job", async () => {
    const db = getDb();
    const cluster = await db.cluster.findUniqueOrThrow({ where: { name: "b300" } });
    const budget = await db.budgetNode.findFirstOrThrow({ where: { name: "lm-pretrain" } });
    const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.researcher.email } });
    const nowMs = (await getNow(db)).getTime();
    const job = (name: string) =>
      db.job.create({
        data: {
          clusterId: cluster.id,
          budgetId: budget.id,
          userId: user.id,
          name,
          gpus: 8,
          minRuntimeSec: 3600,
          isResumable: true,
          submittedAt: new Date(nowMs - 10 * HOUR_MS),
        },
      });
    const fresh = await job("queue-wait never ran");
    const requeued = await job("queue-wait requeued");
    ids.push(fresh.id, requeued.id);
    const run = (startH: number, endH: number) =>
      db.run.create({
        data: {
          jobId: requeued.id,
          clusterId: cluster.id,
          budgetId: budget.id,
          gpus: 8,
          placement: [{ node: 0, gpus: 8 }],
          isAllocated: true,
          startedAt: new Date(nowMs - startH * HOUR_MS),
          protectedUntil: new Date(nowMs - startH * HOUR_MS + HOUR_MS),
          endedAt: new Date(nowMs - endH * HOUR_MS),
          endReason: "preempted",
        },
      });
    await run(9, 6);
    await run(4, 2);
    await db.job.update({
      where: { id: requeued.id },
      data: { firstStartedAt: new Date(nowMs - 9 * HOUR_MS) },
    });
    // A tick of the cluster would take the queue from its cache: its version moves with ticks.
    await db.cluster.update({ where: { id: cluster.id }, data: { tickedAt: new Date() } });

    const queue = await getClusterQueue("b300");
    const waiting = (id: string) => queue.pending.find((row) => row.jobId === id)!.waitingSec;
    expect(waiting(fresh.id) / 3600).toBeCloseTo(10, 1);
    expect(waiting(requeued.id) / 3600).toBeCloseTo(2, 1);
  });
});
