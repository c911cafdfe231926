// Mirrored submissions (job.submitted), executor cancels and the plan's view of mirrored jobs,
// on a registered SLURM-backed cluster of the demo lab's tree, on the real database.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { DEMO_USERS } from "../demo/lab-org";
import { getDb } from "./db/app-db";
import { removeTestCluster } from "../testing/remove-cluster";
import { registerCluster } from "./cluster-registration";
import { listClusters } from "./clusters";
import { getJobView } from "./job-views";
import { submitJob } from "./jobs";
import { getPlan, ingestEvents } from "./executor";
import { listDriverClusters } from "../demo/executor/reads";
import { expectAppError } from "../testing/expect-app-error";
import { sbatchSubmitted } from "../testing/sbatch-event";

const databaseUrl = inject("databaseUrl");
const CLUSTER = "slurm-test";

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const admin = await getDb().user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
  await registerCluster(
    {
      name: CLUSTER,
      gpuType: "H100",
      executor: "slurm",
      nodes: [
        { hostname: "n1", gpus: 8 },
        { hostname: "n2", gpus: 8 },
      ],
    },
    admin.id,
  );
});
afterAll(async () => {
  // The database is shared with the other test files: leave no SLURM cluster behind.
  const db = getDb();
  await removeTestCluster(db, CLUSTER);
  await db.user.deleteMany({ where: { email: { endsWith: `@${CLUSTER}.slurm.invalid` } } });
  await db.$disconnect();
});

let sequence = 0;
function submitted(extra: Record<string, unknown> = {}) {
  sequence += 1;
  return sbatchSubmitted(`slurm-${100 + sequence}-submit`, String(100 + sequence), extra);
}

describe("a registered SLURM cluster", () => {
  it("has the executor's node names and is never driven by the demo executor", async () => {
    const plan = await getPlan(CLUSTER);
    expect(plan.nodes.map((node) => [node.index, node.hostname, node.gpus])).toEqual([
      [0, "n1", 8],
      [1, "n2", 8],
    ]);
    expect((await listDriverClusters()).map((cluster) => cluster.name)).not.toContain(CLUSTER);
    const listed = (await listClusters()).find((cluster) => cluster.name === CLUSTER);
    expect(listed).toMatchObject({ executor: "slurm", gpus: 16 });
  });
});

describe("registering a default minimum runtime above the maximum", () => {
  const input = {
    name: CLUSTER,
    gpuType: "H100",
    executor: "slurm" as const,
    nodes: [
      { hostname: "n1", gpus: 8 },
      { hostname: "n2", gpus: 8 },
    ],
  };

  it("is refused, naming both fields, when one is given beside the other as stored", async () => {
    const admin = await getDb().user.findUniqueOrThrow({
      where: { email: DEMO_USERS.admin.email },
    });
    const error = await expectAppError(
      registerCluster({ ...input, maxMinRuntimeSec: 1800 }, admin.id),
      "validation_failed",
    );
    const message =
      "The default minimum runtime (defaultMinRuntimeSec, 1 h) is above the maximum (maxMinRuntimeSec, 30 min): every job that declares none would be refused. Lower the default or raise the maximum.";
    expect(error.message).toBe(message);
    expect(error.issues).toEqual([{ path: "defaultMinRuntimeSec", message }]);
    expect(
      await getDb().cluster.findUniqueOrThrow({
        where: { name: CLUSTER },
        select: { maxMinRuntimeSec: true, defaultMinRuntimeSec: true },
      }),
    ).toEqual({ maxMinRuntimeSec: 8 * 3600, defaultMinRuntimeSec: 3600 });
  });
});

describe("a job submitted in Allot for a SLURM cluster", () => {
  it("is refused: it comes from sbatch", async () => {
    const db = getDb();
    const riley = await db.user.findUniqueOrThrow({
      where: { email: DEMO_USERS.researcher.email },
    });
    const leaf = await db.budgetNode.findFirstOrThrow({ where: { name: "lm-pretrain" } });
    const input = {
      cluster: CLUSTER,
      budgetId: leaf.id,
      name: "from the web",
      gpus: 8,
      minRuntimeSec: 3600,
      isResumable: true,
      priority: "normal" as const,
    };
    const error = await submitJob({ id: riley.id, isAdmin: false }, input).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 422,
      issues: [
        { path: "cluster", message: expect.stringMatching(/run by SLURM: submit with sbatch -A/) },
      ],
    });
  });
});

describe("job.submitted", () => {
  it("queues the job on the account's leaf for the person with that login, once", async () => {
    const event = submitted();
    const first = await ingestEvents(CLUSTER, [event]);
    expect(first.results[0]).toMatchObject({ outcome: "applied", jobId: expect.any(String) });
    const jobId = first.results[0]!.jobId!;
    const job = await getDb().job.findUniqueOrThrow({
      where: { id: jobId },
      include: { user: true, budget: true },
    });
    expect(job).toMatchObject({ externalId: event.externalId, gpus: 8, minRuntimeSec: 3600 });
    expect(job.user.email).toBe(DEMO_USERS.researcher.email);
    expect(job.budget.name).toBe("lm-pretrain");
    expect((await getJobView(jobId)).externalId).toBe(event.externalId);

    expect((await ingestEvents(CLUSTER, [event])).results[0]!.outcome).toBe("duplicate");
    const again = await ingestEvents(CLUSTER, [{ ...event, id: "slurm-again-submit" }]);
    expect(again.results[0]).toMatchObject({ outcome: "ignored", jobId });

    const plan = await getPlan(CLUSTER);
    const start = plan.starts.find((entry) => entry.jobId === jobId);
    expect(start?.externalId).toBe(event.externalId);
    // The sentence goes into the SLURM comment: it names the node as squeue does, not "node 0".
    expect(start?.sentence).toMatch(/^Started at \S+ UTC on node n[12] with 8 GPUs/);
    const run = (await getJobView(jobId)).runs[0]!;
    expect(run.hosts).toEqual([run.nodes[0] === 0 ? "n1" : "n2"]);
  });

  it("refuses what cannot run with a reason for the user, and judges a retry again", async () => {
    const cases = [
      [submitted({ account: "nosuch" }), /Account "nosuch" is not a budget in Allot/],
      [
        submitted({ account: "language" }),
        /has sub-budgets; charge one of its leaves \(e\.g\. language\./,
      ],
      [submitted({ gpus: 24 }), /asks for 24 GPUs; slurm-test has 16/],
      [
        submitted({ minRuntimeSec: 9 * 3600 }),
        /--time-min\) of 9 h is above slurm-test's maximum of 8 h/,
      ],
    ] as const;
    for (const [event, reason] of cases) {
      const result = (await ingestEvents(CLUSTER, [event])).results[0]!;
      expect(result).toMatchObject({ outcome: "refused", note: expect.stringMatching(reason) });
      expect((await ingestEvents(CLUSTER, [event])).results[0]!.outcome).toBe("refused");
    }
    const refusedIds = cases.map(([event]) => event.externalId);
    expect(await getDb().job.count({ where: { externalId: { in: refusedIds } } })).toBe(0);
  });

  it("gives an unknown login a user of its own who cannot sign in", async () => {
    const result = (await ingestEvents(CLUSTER, [submitted({ user: "root", gpus: 1 })]))
      .results[0]!;
    const job = await getDb().job.findUniqueOrThrow({
      where: { id: result.jobId! },
      include: { user: true },
    });
    expect(job.user.email).toBe("root@slurm-test.slurm.invalid");
  });
});

describe("the plan of mirrored jobs", () => {
  it("lists waiting jobs with their reason, running runs, and jobs cancelled on either side", async () => {
    const filler = [submitted({ gpus: 8 }), submitted({ gpus: 8 }), submitted({ gpus: 8 })];
    await ingestEvents(CLUSTER, filler);
    let plan = await getPlan(CLUSTER);
    await ingestEvents(
      CLUSTER,
      plan.starts.map((start) => ({
        id: `start-${start.runId}`,
        kind: "job.started" as const,
        runId: start.runId,
      })),
    );
    plan = await getPlan(CLUSTER);
    expect(plan.starts).toEqual([]);
    expect(plan.running.length).toBeGreaterThan(0);
    expect(plan.running.every((run) => run.externalId !== "")).toBe(true);
    expect(plan.waiting.length).toBeGreaterThan(0);
    expect(plan.waiting[0]!.sentence).not.toBe("");

    const waiting = plan.waiting[0]!;
    const cancel = {
      id: `cancel-${waiting.jobId}`,
      kind: "job.cancelled" as const,
      jobId: waiting.jobId,
    };
    expect((await ingestEvents(CLUSTER, [cancel])).results[0]!.outcome).toBe("applied");
    const later = { ...cancel, id: `${cancel.id}-again` };
    expect((await ingestEvents(CLUSTER, [later])).results[0]).toMatchObject({
      outcome: "ignored",
      note: "The job is already cancelled.",
    });
    plan = await getPlan(CLUSTER);
    expect(plan.cancelled).toContainEqual({ jobId: waiting.jobId, externalId: waiting.externalId });
    expect(plan.waiting.map((job) => job.jobId)).not.toContain(waiting.jobId);
  });
});
