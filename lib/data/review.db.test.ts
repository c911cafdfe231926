import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { simulateLabHistory, type LabHistory } from "../demo/lab-history";
import { buildLabOrg, DEMO_ORG_SEED, type LabOrg } from "../demo/lab-org";
import { buildReport } from "../sim";
import { upsertClusters, upsertOrg } from "../demo/seed-org";
import { insertLabHistory } from "../demo/seed-history";
import { openScratchDatabase, type ScratchDatabase } from "../testing/scratch-database";
import { createPrismaClient, type Db } from "./db/client";
import { loadPeriodReview } from "./review";
import { rebuildRollups } from "./tick/rollups";

const databaseUrl = inject("databaseUrl");
const isEmbedded = inject("isEmbeddedDatabase");
const H = 3600;

describe("a simulated history, stored and rolled up", () => {
  let scratch: ScratchDatabase;
  let db: Db;
  const cluster = { name: "history-check", gpuType: "B300", nodes: 11, gpusPerNode: 8 };
  // Three days and a part, ending on an hour two days ago.
  const endSec = Math.floor(Date.now() / 1000 / H) * H - 2 * 86_400 + 5 * H;
  let history: LabHistory;

  beforeAll(async () => {
    scratch = await openScratchDatabase(databaseUrl, isEmbedded);
    db = createPrismaClient(scratch.url, 2);
    await seedDemoLab(scratch.url, { withHistory: false });
    await upsertClusters(db, [cluster]);
    history = simulateLabHistory({
      org: buildLabOrg(DEMO_ORG_SEED),
      endSec,
      seed: 11,
      days: 3,
      clusters: [cluster],
    });
    await insertLabHistory(db, history);
  }, 120_000);
  afterAll(async () => {
    await db.$disconnect();
    await scratch.drop();
  });

  it("has the roll-ups a rebuild from its runs and jobs gives", async () => {
    const clusterId = (await db.cluster.findUniqueOrThrow({ where: { name: cluster.name } })).id;
    const rows = () =>
      db.usageHourly.findMany({
        where: { clusterId },
        orderBy: [{ hourStart: "asc" }, { budgetId: "asc" }],
      });
    const seeded = await rows();
    expect(seeded.length).toBeGreaterThan(3 * 24);
    await rebuildRollups(db, { fromSec: history.startSec, toSec: endSec });
    expect(await rows()).toEqual(seeded);
  });

  it("gives the simulator's own report through the review loader (docs/fulfilment.md both ways)", async () => {
    const sim = buildReport(history.scenario, history.result);
    const review = await loadPeriodReview(db, {
      fromSec: history.startSec,
      toSec: endSec,
      cluster: cluster.name,
    });
    const byPath = new Map(review.report.nodes.map((node) => [node.path, node]));
    const leafPreemptions = (path: string) => review.activity[byPath.get(path)!.id]!.preemptions;
    let compared = 0;
    for (const budget of sim.budgets) {
      const node = byPath.get(budget.path);
      if (budget.receivedGpuHours === 0 && budget.entitledGpuHours === 0) continue;
      compared += 1;
      // The simulator rounds hours to 0.1 and ratios to 4 decimals.
      expect(node?.receivedGpuHours).toBeCloseTo(budget.receivedGpuHours, 1);
      expect(node?.receivedAllocatedGpuHours).toBeCloseTo(budget.allocatedGpuHours, 1);
      expect(node?.receivedUnallocatedGpuHours).toBeCloseTo(budget.unallocatedGpuHours, 1);
      expect(node?.entitledGpuHours).toBeCloseTo(budget.entitledGpuHours, 1);
      expect(node?.workConservingGpuHours).toBeCloseTo(budget.workConservingGpuHours, 1);
      if (budget.fulfilment === null) expect(node?.fulfilment ?? null).toBeNull();
      else expect(node?.fulfilment).toBeCloseTo(budget.fulfilment, 4);
      expect(node?.effectiveShare).toBeCloseTo(budget.effectiveShare, 6);
      expect(leafPreemptions(budget.path)).toBe(budget.preemptions);
    }
    expect(compared).toBeGreaterThan(10);
    expect(review.report.headline.utilisation).toBeCloseTo(sim.utilisation, 4);
    expect(review.report.headline.unallocatedShare).toBeCloseTo(sim.unallocatedShare, 4);
    expect(review.report.headline.fulfilment).toBeCloseTo(sim.fulfilment!, 4);
    const rootWaits = review.activity[review.report.nodes[0]!.id]!.waits;
    expect(
      Object.fromEntries(
        rootWaits.map((w) => [w.jobClass, { jobs: w.jobs, p50: w.waitP50Sec, p90: w.waitP90Sec }]),
      ),
    ).toEqual(
      Object.fromEntries(
        Object.entries(sim.classes).map(([name, c]) => [
          name,
          { jobs: c.jobs, p50: c.waitP50Sec, p90: c.waitP90Sec },
        ]),
      ),
    );
  });
});

describe("loadPeriodReview on hand-made roll-ups", () => {
  let scratch: ScratchDatabase;
  let db: Db;
  const ids: Record<string, string> = {};
  // A lab of two leaves on one 4-GPU cluster; a's weight goes from 1 to 3 at 01:00 (hour 1).
  const org: LabOrg = {
    users: [{ email: "u@lab.example", name: "U", isAdmin: false, isDemo: false }],
    root: {
      name: "lab",
      weight: 1,
      leads: [],
      members: [],
      children: [
        { name: "a", weight: 1, leads: [], members: ["u@lab.example"], children: [] },
        { name: "b", weight: 1, leads: [], members: ["u@lab.example"], children: [] },
      ],
    },
    clusters: [{ name: "c", gpuType: "H100", nodes: 1, gpusPerNode: 4 }],
  };
  const day = Date.UTC(2026, 10, 2) / 1000;

  beforeAll(async () => {
    scratch = await openScratchDatabase(databaseUrl, isEmbedded);
    db = createPrismaClient(scratch.url, 2);
    await upsertOrg(db, org, new Date((day - 86_400) * 1000));
    for (const node of await db.budgetNode.findMany()) ids[node.name] = node.id;
    await db.weightChange.create({
      data: { nodeId: ids.a!, at: new Date((day + H) * 1000), weightBefore: 1, weightAfter: 3 },
    });
    const clusterId = (await db.cluster.findUniqueOrThrow({ where: { name: "c" } })).id;
    ids.cluster = clusterId;
    const hour = (start: number, leaf: string, demand: number, allocated: number, un = 0) => ({
      clusterId,
      budgetId: ids[leaf]!,
      hourStart: new Date((day + start) * 1000),
      demandGpuSec: demand * H,
      allocatedGpuSec: allocated * H,
      unallocatedGpuSec: un * H,
      healthyCapacityGpuSec: 4 * H,
      preemptions: leaf === "b" ? 1 : 0,
      effectiveShare: 0.5,
    });
    // The cluster-hours of lib/reports/period-report.test.ts: a entitled 2 + 3, b 1 + 1.
    await db.usageHourly.createMany({
      data: [hour(0, "a", 4, 3), hour(0, "b", 1, 1), hour(H, "a", 4, 1, 1), hour(H, "b", 4, 2)],
    });
    const userId = (await db.user.findFirstOrThrow()).id;
    const job = (leaf: string, jobClass: string, submitSec: number, startSec: number | null) => ({
      clusterId,
      budgetId: ids[leaf]!,
      userId,
      name: `${jobClass}-${submitSec}`,
      gpus: 1,
      minRuntimeSec: 600,
      isResumable: true,
      jobClass,
      submittedAt: new Date((day + submitSec) * 1000),
      firstStartedAt: startSec === null ? null : new Date((day + startSec) * 1000),
      state: startSec === null ? ("pending" as const) : ("completed" as const),
    });
    await db.job.createMany({
      data: [
        job("a", "debug", 0, 0),
        job("a", "debug", 100, 160),
        job("a", "debug", 200, 800),
        job("b", "debug", 300, 420),
        job("b", "training", 3000, null),
      ],
    });
  });
  afterAll(async () => {
    await db.$disconnect();
    await scratch.drop();
  });

  const flow = (entitled: number, allocated: number, unallocated: number) => ({
    entitledGpuHours: entitled,
    receivedGpuHours: allocated + unallocated,
    receivedAllocatedGpuHours: allocated,
    receivedUnallocatedGpuHours: unallocated,
  });

  it("gives the report, waits and preemptions per node, days and usage ratios", async () => {
    const review = await loadPeriodReview(db, { fromSec: day, toSec: day + 2 * H });
    const node = (name: string) => review.report.nodes.find((entry) => entry.id === ids[name])!;
    expect(node("a")).toMatchObject({
      entitledGpuHours: 5,
      receivedGpuHours: 5,
      fulfilment: 1,
      hourlyFulfilment: 0.8,
    });
    expect(node("b")).toMatchObject({ entitledGpuHours: 2, receivedGpuHours: 3, fulfilment: 1 });
    expect(review.report.headline).toMatchObject({
      utilisation: 1,
      fulfilment: 1,
      hourlyFulfilment: 6 / 7,
    });

    // Waits: a's debug jobs waited 0, 60 and 600 s; b's debug 120 s; b's training job, pending
    // since 00:50, counts to the period's end (4,200 s), or to `nowSec` when given.
    expect(review.activity[ids.a!]).toEqual({
      waits: [{ jobClass: "debug", jobs: 3, waitP50Sec: 60, waitP90Sec: 600 }],
      preemptions: 0,
    });
    expect(review.activity[ids.b!]!.preemptions).toBe(2);
    expect(review.activity[ids.lab!]).toEqual({
      waits: [
        { jobClass: "debug", jobs: 4, waitP50Sec: 60, waitP90Sec: 600 },
        { jobClass: "training", jobs: 1, waitP50Sec: 4200, waitP90Sec: 4200 },
      ],
      preemptions: 2,
    });
    const early = await loadPeriodReview(db, { fromSec: day, toSec: day + 2 * H, nowSec: day + H });
    expect(early.activity[ids.b!]!.waits[1]).toMatchObject({ waitP50Sec: 600 });

    expect(review.daily).toEqual([
      {
        dayStartSec: day,
        nodes: {
          // The lab is entitled to what its leaves are: 5 + 2.
          [ids.lab!]: flow(7, 7, 1),
          [ids.a!]: flow(5, 4, 1),
          [ids.b!]: flow(2, 3, 0),
        },
      },
    ]);
    // Over the week to 02:00, a used 4 allocated GPU-hours of its 75% of 4 GPUs x 7 days.
    const standing = review.standings[0]!;
    expect(standing).toMatchObject({ cluster: "c", atSec: day + 2 * H, capacityGpus: 4 });
    const a = standing.nodes.find((entry) => entry.id === ids.a)!;
    expect(a.usageGpuHours).toBe(4);
    expect(a.usageRatio).toBeCloseTo(4 / (0.75 * 4 * 168), 12);
    expect(a.rank).toBe(1);
    expect(standing.nodes.find((entry) => entry.id === ids.b)!.rank).toBe(2);
  });

  it("refuses an empty period and an unknown cluster", async () => {
    await expect(loadPeriodReview(db, { fromSec: day, toSec: day })).rejects.toThrow(
      /must end after it starts/,
    );
    // An unknown cluster is a 422 on the field (house rules), not a 404.
    await expect(
      loadPeriodReview(db, { fromSec: day, toSec: day + H, cluster: "nope" }),
    ).rejects.toMatchObject({
      status: 422,
      issues: [{ path: "cluster", message: 'No cluster is named "nope".' }],
    });
  });
});

describe("the demo seed's history", () => {
  let scratch: ScratchDatabase;
  let db: Db;

  beforeAll(async () => {
    scratch = await openScratchDatabase(databaseUrl, isEmbedded);
    db = createPrismaClient(scratch.url, 2);
  });
  afterAll(async () => {
    await db.$disconnect();
    await scratch.drop();
  });

  it("is stored once, hands over at now with nothing open, and a second seed adds nothing", async () => {
    const count = async () => ({
      jobs: await db.job.count(),
      runs: await db.run.count(),
      decisions: await db.decision.count(),
      rollups: await db.usageHourly.count(),
      weights: await db.weightChange.count(),
    });
    const summary = await seedDemoLab(scratch.url, { historyDays: 1 });
    expect(summary).toMatch(/history of 1\.\d days: \d+ jobs/);
    const first = await count();
    expect(first.jobs).toBeGreaterThan(1000);
    expect(first.rollups).toBeGreaterThan(24);
    expect(await db.job.count({ where: { state: { in: ["pending", "running"] } } })).toBe(0);
    expect(await db.run.count({ where: { endedAt: null } })).toBe(0);
    const started = await db.job.count({ where: { runs: { some: {} } } });
    expect(await db.job.count({ where: { firstStartedAt: { not: null } } })).toBe(started);
    // The tree's weights are in force from the history's first hour.
    const firstWeight = await db.weightChange.aggregate({ _min: { at: true } });
    const firstJob = await db.job.aggregate({ _min: { submittedAt: true } });
    expect(firstWeight._min.at!.getTime()).toBeLessThanOrEqual(
      firstJob._min.submittedAt!.getTime(),
    );

    await seedDemoLab(scratch.url, { historyDays: 1 });
    expect(await count()).toEqual(first);
  }, 120_000);
});
