import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { DEMO_USERS } from "../demo/lab-org";
import { AppError } from "../errors";
import { getDb } from "./db/app-db";
import { ingestEvents, getPlan } from "./executor";
import { getJobView } from "./job-views";
import { cancelJob, submitJob } from "./jobs";
import { runTick } from "./tick/tick";

const databaseUrl = inject("databaseUrl");
const isEmbedded = inject("isEmbeddedDatabase");
let riley = { id: "", isAdmin: false };
let pretrainId = "";
let languageId = "";
let visionLeafId = "";

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const db = getDb();
  const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.researcher.email } });
  riley = { id: user.id, isAdmin: false };
  const language = await db.budgetNode.findFirstOrThrow({ where: { name: "language" } });
  languageId = language.id;
  pretrainId = (await db.budgetNode.findFirstOrThrow({ where: { name: "lm-pretrain" } })).id;
  visionLeafId = (await db.budgetNode.findFirstOrThrow({ where: { name: "video-gen" } })).id;
});
afterAll(async () => {
  await getDb().$disconnect();
});

const job = (cluster: string, extra: Record<string, unknown> = {}) => ({
  cluster,
  budgetId: pretrainId,
  name: "test job",
  gpus: 8,
  minRuntimeSec: 3600,
  isResumable: true,
  priority: "normal" as const,
  ...extra,
});

async function issuesOf(work: Promise<unknown>): Promise<{ path: string; message: string }[]> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(422);
  return (error as AppError).issues ?? [];
}

describe("job submission rules", () => {
  it("names the field: too many GPUs, inner budget, foreign budget, min runtime above maximum", async () => {
    expect(
      (await issuesOf(submitJob(riley, job("b300", { gpus: 96 })))).map((i) => i.path),
    ).toEqual(["gpus"]);
    const inner = await issuesOf(submitJob(riley, job("b300", { budgetId: languageId })));
    expect(inner).toEqual([
      { path: "budgetId", message: expect.stringMatching(/only leaves can be charged/) },
    ]);
    const foreign = await issuesOf(submitJob(riley, job("b300", { budgetId: visionLeafId })));
    expect(foreign[0]?.message).toMatch(/not a member of "vision\/video-gen"/);
    const tooLong = await issuesOf(submitJob(riley, job("b300", { minRuntimeSec: 9 * 3600 })));
    expect(tooLong).toEqual([
      { path: "minRuntimeSec", message: expect.stringMatching(/at most 8 h/) },
    ]);
  });
});

describe("executor events", () => {
  it("are idempotent: a repeated or late event changes nothing twice", async () => {
    const jobId = await submitJob(riley, job("h100", { gpus: 16 }));
    const plan = await getPlan("h100");
    const start = plan.starts.find((entry) => entry.jobId === jobId);
    expect(start).toMatchObject({ gpus: 16, isAllocated: true });
    expect(start?.sentence).toMatch(/^Started at .* with 16 GPUs: language\/lm-pretrain/);

    const started = {
      id: `started-${start!.runId}`,
      kind: "job.started" as const,
      runId: start!.runId,
    };
    expect((await ingestEvents("h100", [started])).results[0]?.outcome).toBe("applied");
    expect((await ingestEvents("h100", [started])).results[0]?.outcome).toBe("duplicate");
    expect((await getPlan("h100")).starts.some((entry) => entry.runId === start!.runId)).toBe(
      false,
    );

    const finished = {
      id: `finished-${start!.runId}`,
      kind: "job.finished" as const,
      runId: start!.runId,
    };
    const twice = await ingestEvents("h100", [finished, finished]);
    expect(twice.results.map((result) => result.outcome)).toEqual(["applied", "duplicate"]);
    const late = await ingestEvents("h100", [{ ...finished, id: "another-id-for-the-same-run" }]);
    expect(late.results[0]).toMatchObject({ outcome: "ignored", note: "The run already ended." });
    const view = await getJobView(jobId);
    expect(view.state).toBe("completed");
    expect(view.runs).toHaveLength(1);
    expect(view.runs[0]?.endReason).toBe("completed");
    const events = await getDb().executorEvent.count({ where: { eventId: finished.id } });
    expect(events).toBe(1);
  });

  it("drains a node: its unprotected run is preempted and the drain completes without a human", async () => {
    const jobId = await submitJob(riley, job("b200", { minRuntimeSec: 1 }));
    const run = (await getJobView(jobId)).runs[0]!;
    const node = run.nodes[0]!;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const result = await ingestEvents("b200", [{ id: "drain-1", kind: "node.draining", node }]);
    expect(result.tick).toMatchObject({ preemptions: 1, drainsCompleted: 1 });
    const view = await getJobView(jobId);
    const preempt = view.decisions.find((decision) => decision.kind === "preempt");
    expect(preempt?.sentence).toMatch(new RegExp(`node ${node} is draining for maintenance`));
    const drained = await getDb().clusterNode.findFirstOrThrow({
      where: { cluster: { name: "b200" }, index: node },
    });
    expect(drained.drainedAt).not.toBeNull();
    const plan = await getPlan("b200");
    expect(plan.preemptions.map((stop) => stop.runId)).toContain(run.id);
    await cancelJob(riley, jobId);
  });
});

describe("the tick", () => {
  async function snapshot(cluster: string) {
    const db = getDb();
    const where = { cluster: { name: cluster } };
    return {
      runs: await db.run.count({ where }),
      decisions: await db.decision.count({ where }),
      states: (
        await db.job.findMany({
          where,
          select: { state: true, waitRule: true },
          orderBy: { id: "asc" },
        })
      ).map((row) => `${row.state}:${row.waitRule}`),
    };
  }

  async function queueDirectly(cluster: string, count: number, gpus: number) {
    const db = getDb();
    const clusterRow = await db.cluster.findUniqueOrThrow({ where: { name: cluster } });
    await db.job.createMany({
      data: Array.from({ length: count }, (_, index) => ({
        clusterId: clusterRow.id,
        budgetId: pretrainId,
        userId: riley.id,
        name: `queued ${index}`,
        gpus,
        minRuntimeSec: 3600,
        isResumable: true,
        submittedAt: new Date(Date.now() - 1000 + index),
      })),
    });
  }

  it("that fails halfway leaves the last committed state intact", async () => {
    await queueDirectly("b300", 14, 8);
    const before = await snapshot("b300");
    for (const stage of ["preemptions", "starts", "waiting"] as const) {
      await expect(runTick("b300", { failAfter: stage })).rejects.toThrow(/Injected failure/);
      expect(await snapshot("b300")).toEqual(before);
    }
    const result = await runTick("b300");
    expect(result).toMatchObject({ isSkipped: false, starts: 11, pending: 3, waitDecisions: 3 });
    // The next tick changes no rule: no new wait decisions (the budget's rank moves, as it now
    // has usage); once nothing moves, no reason is rewritten either.
    expect(await runTick("b300")).toMatchObject({ starts: 0, waitDecisions: 0, reasonsUpdated: 3 });
    expect(await runTick("b300")).toMatchObject({ starts: 0, waitDecisions: 0, reasonsUpdated: 0 });
  });

  it("runs under an advisory lock: of two concurrent ticks exactly one decides", async () => {
    const db = getDb();
    await db.job.updateMany({
      where: { cluster: { name: "b300" }, state: { in: ["pending", "running"] } },
      data: { state: "cancelled" },
    });
    await db.run.updateMany({
      where: { cluster: { name: "b300" }, endedAt: null },
      data: { endedAt: new Date(), endReason: "cancelled" },
    });
    await queueDirectly("b300", 5, 8);
    const results = await Promise.all([runTick("b300"), runTick("b300")]);
    expect(results.filter((result) => result.starts > 0)).toHaveLength(1);
    expect(results.reduce((sum, result) => sum + result.starts, 0)).toBe(5);
    const runsPerJob = await db.run.groupBy({
      by: ["jobId"],
      where: { cluster: { name: "b300" }, endedAt: null },
      _count: { _all: true },
    });
    expect(runsPerJob.every((row) => row._count._all === 1)).toBe(true);
  });

  it.skipIf(isEmbedded)("skips while another replica holds the cluster's lock", async () => {
    const other = new pg.Client({ connectionString: databaseUrl });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query("SELECT pg_advisory_xact_lock(7731, hashtext('b300'))");
      expect(await runTick("b300")).toMatchObject({ isSkipped: true, starts: 0 });
      await other.query("COMMIT");
      expect((await runTick("b300")).isSkipped).toBe(false);
    } finally {
      await other.end();
    }
  });
});
