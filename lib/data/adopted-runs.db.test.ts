// Jobs that already run on the executor when they are mirrored (SLURM: running before the
// bridge) are adopted as confirmed runs, on the real database.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { DEMO_USERS } from "../demo/lab-org";
import { removeTestCluster } from "../testing/remove-cluster";
import { sbatchSubmitted } from "../testing/sbatch-event";
import { executorEventSchema } from "../validation/executor";
import { registerCluster } from "./cluster-registration";
import { getDb } from "./db/app-db";
import { getPlan, ingestEvents } from "./executor";
import { getJobView } from "./job-views";

const databaseUrl = inject("databaseUrl");
const CLUSTERS = ["adopt-a", "adopt-b", "adopt-c", "adopt-d"];
const HOUR_MS = 3600_000;

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const admin = await getDb().user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
  for (const name of CLUSTERS) {
    const nodes = [
      { hostname: "n1", gpus: 8 },
      { hostname: "n2", gpus: 8 },
    ];
    await registerCluster({ name, gpuType: "H100", executor: "slurm", nodes }, admin.id);
  }
});
afterAll(async () => {
  // The database is shared with the other test files: leave no cluster behind.
  const db = getDb();
  for (const name of CLUSTERS) await removeTestCluster(db, name);
  await db.$disconnect();
});

let sequence = 0;
function running(node: number, startedAt: Date, extra: Record<string, unknown> = {}) {
  sequence += 1;
  const externalId = String(500 + sequence);
  return sbatchSubmitted(`slurm-${externalId}-submitted`, externalId, {
    running: { placement: [{ node, gpus: 8 }], startedAt: startedAt.toISOString() },
    ...extra,
  });
}

describe("a job running on the executor when it is mirrored", () => {
  it("is adopted as a confirmed run from its start, protected and charged from then", async () => {
    const startedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 2 * HOUR_MS);
    const event = running(0, startedAt, { minRuntimeSec: 3 * 3600 });
    const result = (await ingestEvents("adopt-a", [event])).results[0]!;
    expect(result).toMatchObject({ outcome: "applied", jobId: expect.any(String) });
    const job = await getDb().job.findUniqueOrThrow({
      where: { id: result.jobId! },
      include: { runs: true },
    });
    expect(job).toMatchObject({ state: "running", submittedAt: startedAt });
    expect(job.firstStartedAt).toEqual(startedAt);
    expect(job.runs).toHaveLength(1);
    expect(job.runs[0]).toMatchObject({
      startedAt,
      protectedUntil: new Date(startedAt.getTime() + 3 * HOUR_MS),
      placement: [{ node: 0, gpus: 8 }],
      isAllocated: true,
      endedAt: null,
    });
    expect(job.runs[0]!.startAckedAt).not.toBeNull();
    // The job page says why it runs: Allot adopted it, it did not start it.
    const view = await getJobView(job.id);
    expect(view.decisions.map((decision) => [decision.kind, decision.rule])).toEqual([
      ["start", "start-adopted"],
    ]);
    expect(view.decisions[0]!.sentence).toMatch(
      /^Already running on node n1 with 8 GPUs since .* when Allot first saw it at .*, charged to language\/lm-pretrain from its start and protected until /,
    );

    // Its GPUs are busy to Allot: a new 8-GPU job starts on the other node.
    const queued = (await ingestEvents("adopt-a", [sbatchSubmitted("slurm-9001-s", "9001")]))
      .results[0]!;
    const plan = await getPlan("adopt-a");
    expect(plan.running.map((run) => run.externalId)).toEqual([event.externalId]);
    const start = plan.starts.find((entry) => entry.jobId === queued.jobId);
    expect(start?.placement).toEqual([{ node: 1, gpus: 8 }]);
  });

  it("undoes a start Allot decided on those GPUs that the executor never confirmed", async () => {
    const queued = (await ingestEvents("adopt-b", [sbatchSubmitted("slurm-9101-s", "9101")]))
      .results[0]!;
    const decided = (await getPlan("adopt-b")).starts.find((s) => s.jobId === queued.jobId)!;
    const node = decided.placement[0]!.node;
    const adopted = (await ingestEvents("adopt-b", [running(node, new Date())])).results[0]!;
    expect(adopted.outcome).toBe("applied");
    const undone = await getDb().run.findUniqueOrThrow({ where: { id: decided.runId } });
    expect(undone).toMatchObject({ endReason: "failed" });
    expect(undone.endedAt).not.toBeNull();
    // The tick after the batch places the undone job again, on the other node.
    const plan = await getPlan("adopt-b");
    const again = plan.starts.find((s) => s.jobId === queued.jobId);
    expect(again?.placement).toEqual([{ node: 1 - node, gpus: 8 }]);
  });

  it("is refused, with the reason, where confirmed runs hold the GPUs or the placement is wrong", async () => {
    const first = (await ingestEvents("adopt-c", [running(0, new Date())])).results[0]!;
    expect(first.outcome).toBe("applied");
    const cases = [
      [running(0, new Date()), /runs the executor confirmed on node 0's GPUs/],
      [running(7, new Date()), /The cluster has no node 7\./],
      [running(1, new Date(), { gpus: 16 }), /The placement holds 8 GPUs; the job asks for 16\./],
    ] as const;
    for (const [event, reason] of cases) {
      const result = (await ingestEvents("adopt-c", [event])).results[0]!;
      expect(result).toMatchObject({ outcome: "refused", note: expect.stringMatching(reason) });
    }
    const ids = cases.map(([event]) => event.externalId);
    expect(await getDb().job.count({ where: { externalId: { in: ids } } })).toBe(0);
  });

  it("is rolled up from its start, though the cluster ticked since, with its minimum runtime capped", async () => {
    // A tick first, so that the next one rolls up from the last tick's hour only.
    await ingestEvents("adopt-d", [sbatchSubmitted("slurm-9201-s", "9201")]);
    const free = (await getPlan("adopt-d")).starts[0]!.placement[0]!.node === 0 ? 1 : 0;
    const hourMs = HOUR_MS;
    const startedAt = new Date(Math.floor(Date.now() / hourMs) * hourMs - 5 * hourMs);
    const event = running(free, startedAt, { minRuntimeSec: 9 * 3600 });
    const result = (await ingestEvents("adopt-d", [event])).results[0]!;
    expect(result.outcome).toBe("applied");
    const job = await getDb().job.findUniqueOrThrow({ where: { id: result.jobId! } });
    // Above the cluster's 8 h maximum: cut to it, not refused.
    expect(job.minRuntimeSec).toBe(8 * 3600);
    const cluster = await getDb().cluster.findUniqueOrThrow({ where: { name: "adopt-d" } });
    const hour = await getDb().usageHourly.findUnique({
      where: {
        clusterId_budgetId_hourStart: {
          clusterId: cluster.id,
          budgetId: job.budgetId,
          hourStart: new Date(startedAt.getTime() + hourMs),
        },
      },
    });
    expect(hour?.allocatedGpuSec).toBe(8 * 3600);
  });

  it("needs a start time with its offset", () => {
    const bad = running(0, new Date(), {
      running: { placement: [{ node: 0, gpus: 8 }], startedAt: "2026-12-08 09:30" },
    });
    const parsed = executorEventSchema.safeParse(bad);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ["running", "startedAt"],
      message: expect.stringMatching(/ISO 8601/),
    });
  });
});
