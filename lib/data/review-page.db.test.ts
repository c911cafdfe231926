// The review loader on hand-made roll-ups (docs/fulfilment.md): weights in force per hour with
// a change in the middle of the period, preemptions and waits rolled up the tree, usage
// ratios over the lookback window, and the period and cluster limits.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { AppError } from "../errors";
import { datePeriod } from "../reports/review-period";
import { createTestBranch, type TestBranch } from "../testing/budget-branch";
import { insertJobs, insertRollups } from "../testing/review-history";
import { setChildren } from "./budget-edits";
import { getChildrenState } from "./budget-state";
import { createPrismaClient } from "./db/client";
import { getReview, loadReviewData } from "./review-page";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
let branch: TestBranch;
let clusterId: string;

// Far before the demo lab's own history: here only this file's tree is in force.
const T0 = Date.UTC(2020, 2, 1) / 1000;
const H = 3600;
const PERIOD = datePeriod("2020-03-01", "2020-03-01")!;
const NOW = T0 + 86_400;

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  branch = await createTestBranch(db, "zz-review");
  const cluster = await db.cluster.create({
    data: { name: "zz-review-c1", gpuType: "H100", nodes: { create: [{ index: 0, gpus: 8 }] } },
    select: { id: true },
  });
  clusterId = cluster.id;
  const { ids, rootId } = branch;
  const weight = (nodeId: string, sec: number, weightAfter: number) => ({
    nodeId,
    at: new Date(sec * 1000),
    weightBefore: null,
    weightAfter,
  });
  // root -> zz-review (1) -> proj (2) -> alice (1), bob (1); zz-review -> solo (1).
  // Two hours in, alice goes from 1 to 3: 1/3 of the cluster becomes 1/2, bob's 1/3 becomes 1/6.
  await db.weightChange.createMany({
    data: [
      weight(rootId, T0, 1),
      weight(ids["zz-review"]!, T0, 1),
      weight(ids["zz-review/proj"]!, T0, 2),
      weight(ids["zz-review/proj/alice"]!, T0, 1),
      weight(ids["zz-review/proj/bob"]!, T0, 1),
      weight(ids["zz-review/solo"]!, T0, 1),
      weight(ids["zz-review/proj/alice"]!, T0 + 2 * H, 3),
    ],
  });
  const row = (budget: string, hourSec: number, demand: number, alloc: number, unalloc = 0) => ({
    clusterId,
    budgetId: ids[budget]!,
    hourSec,
    demandGpuSec: demand * H,
    allocatedGpuSec: alloc * H,
    unallocatedGpuSec: unalloc * H,
    capacityGpuSec: 8 * H,
  });
  await insertRollups(db, [
    // Before the period: counts for usage ratios only.
    row("zz-review/proj/alice", T0 - H, 8, 8),
    { ...row("zz-review/proj/alice", T0, 4, 3), preemptions: 2 },
    row("zz-review/proj/bob", T0, 2, 2),
    row("zz-review/solo", T0, 4, 2, 1),
    row("zz-review/proj/alice", T0 + 2 * H, 6, 2),
    { ...row("zz-review/proj/bob", T0 + 2 * H, 1, 1), preemptions: 1 },
    // The next day: outside the period.
    row("zz-review/solo", T0 + 86_400, 8, 8),
  ]);
  const job = (
    jobClass: string,
    submitted: number,
    started: number | null,
    ended: number | null,
  ) => ({
    clusterId,
    budgetId: ids["zz-review/proj/alice"]!,
    userId: branch.users.researcher.id,
    jobClass,
    gpus: 1,
    submittedSec: T0 + submitted,
    firstStartedSec: started === null ? null : T0 + started,
    endedSec: ended === null ? null : T0 + ended,
  });
  await insertJobs(db, [
    job("debug", 0, 60, 600),
    job("debug", 100, 220, 900),
    job("debug", 200, 800, 1000),
    job("training", 1000, 4600, 9000),
    // Cancelled after waiting 2000 s; still waiting at "now"; submitted the day before.
    job("training", 2000, null, 4000),
    job("training", 3000, null, null),
    job("debug", -86_400, -86_000, -85_000),
  ]);
});

afterAll(async () => {
  // Leave the shared database as the demo lab: no extra cluster, branch or 2020 history.
  await db.job.deleteMany({ where: { clusterId } });
  await db.cluster.delete({ where: { id: clusterId } });
  await db.weightChange.deleteMany({ where: { at: { lt: new Date(NOW * 1000) } } });
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith("zz-review")),
  });
  await db.$disconnect();
});

describe("loadReviewData", () => {
  it("uses the weights in force in each hour, caps entitlement by demand, rolls up the tree", async () => {
    const data = await loadReviewData(db, { period: PERIOD, cluster: "zz-review-c1", nowSec: NOW });
    const byPath = new Map(data.rows.map((row) => [row.path, row]));
    const alice = byPath.get("zz-review/proj/alice")!;
    // Hour 0: min(1/3 x 8, 4) = 8/3, received 3; hour 2: min(1/2 x 8, 6) = 4, received 2.
    expect(alice.entitledGpuHours).toBeCloseTo(8 / 3 + 4, 9);
    expect(alice.receivedAllocatedGpuHours).toBeCloseTo(5, 9);
    // Over the period: 5 of 6.67 entitled; hour by hour: 8/3 in hour 0, 2 in hour 2.
    expect(alice.fulfilment).toBeCloseTo(5 / (8 / 3 + 4), 9);
    expect(alice.hourlyFulfilment).toBeCloseTo((8 / 3 + 2) / (8 / 3 + 4), 9);
    // The share in force over the two hours read: 1/3 in hour 0, 1/2 in hour 2.
    expect(alice.effectiveShare).toBeCloseTo((1 / 3 + 1 / 2) / 2, 12);
    expect(alice.preemptions).toBe(2);
    const bob = byPath.get("zz-review/proj/bob")!;
    // Hour 0: min(8/3, 2) = 2; hour 2: min(1/6 x 8, 1) = 1; all received.
    expect(bob.entitledGpuHours).toBeCloseTo(3, 9);
    expect(bob.fulfilment).toBeCloseTo(1, 9);
    const proj = byPath.get("zz-review/proj")!;
    // A branch adds up its leaves: entitled alice's 20/3 + bob's 3; fulfilled 5 + 3.
    expect(proj.entitledGpuHours).toBeCloseTo(20 / 3 + 3, 9);
    expect(proj.fulfilment).toBeCloseTo((5 + 3) / (20 / 3 + 3), 9);
    expect(proj.preemptions).toBe(3);
    expect(proj.depth).toBe(2);
    const solo = byPath.get("zz-review/solo")!;
    expect(solo.receivedUnallocatedGpuHours).toBeCloseTo(1, 9);
    expect(data.rows[0]!.parentId).toBeNull();
    expect(data.rows.map((r) => r.path)).toEqual([
      "",
      "zz-review",
      "zz-review/proj",
      "zz-review/proj/alice",
      "zz-review/proj/bob",
      "zz-review/solo",
    ]);
  });

  it("gives the headline: utilisation, unallocated share, funded budgets at 95% and the worst", async () => {
    const data = await loadReviewData(db, { period: PERIOD, cluster: "zz-review-c1", nowSec: NOW });
    // Two hours with roll-ups of 8 GPUs; busy 8 + 3 GPU-hours, 1 of them unallocated.
    expect(data.headline.utilisation).toBeCloseTo(11 / 16, 9);
    expect(data.headline.unallocatedShare).toBeCloseTo(1 / 11, 9);
    expect(data.headline.fundedBudgets).toBe(3);
    expect(data.headline.fundedAtLeast95).toBe(2);
    expect(data.headline.worst?.path).toBe("zz-review/proj/alice");
    expect(data.hasData).toBe(true);
    expect(data.cluster).toBe("zz-review-c1");
  });

  it("summarises waits by class, a job that never started counting up to its cancellation or the period end", async () => {
    const data = await loadReviewData(db, { period: PERIOD, cluster: "zz-review-c1", nowSec: NOW });
    const alice = data.rows.find((row) => row.path === "zz-review/proj/alice")!;
    // Debug waits 60, 120, 600 (the one of the day before is outside the period).
    expect(alice.waits.debug).toEqual({ jobs: 3, waitP50Sec: 120, waitP90Sec: 600 });
    // Training: 3600, 2000 (cancelled), 86400 - 3000 (still waiting at now).
    expect(alice.waits.training).toEqual({ jobs: 3, waitP50Sec: 3600, waitP90Sec: 83_400 });
    const root = data.rows[0]!;
    expect(root.waits.debug?.jobs).toBe(3);
  });

  it("charts the period by day and takes usage ratios over the lookback window", async () => {
    const data = await loadReviewData(db, { period: PERIOD, cluster: "zz-review-c1", nowSec: NOW });
    expect(data.series.bucketStartSec).toEqual([T0]);
    expect(data.series.byNode[branch.ids["zz-review/proj/alice"]!]).toEqual({
      entitled: [6.67],
      allocated: [5],
      unallocated: [0],
    });
    const [ratios] = data.usageRatios;
    expect(ratios?.cluster).toBe("zz-review-c1");
    expect(ratios?.atSec).toBe(T0 + 86_400);
    // alice used 8 + 3 + 2 GPU-hours of the window; her share then was 1/2 of 8 GPUs for 7 days.
    expect(ratios?.ratios[branch.ids["zz-review/proj/alice"]!]).toBeCloseTo(
      (13 * H) / (0.5 * 8 * 604_800),
      12,
    );
  });

  it("counts the hours its roll-ups cover, and charts a day without any as not recorded", async () => {
    const day = await loadReviewData(db, { period: PERIOD, cluster: "zz-review-c1", nowSec: NOW });
    // Hours 0 and 2 of the day have roll-ups; hour 1 and the others have none.
    expect(day.coverage).toEqual([
      { cluster: "zz-review-c1", periodHours: 24, recordedHours: 2, firstRecordedSec: T0 },
    ]);
    const threeDays = await loadReviewData(db, {
      period: datePeriod("2020-03-01", "2020-03-03")!,
      cluster: "zz-review-c1",
      nowSec: T0 + 3 * 86_400,
    });
    expect(threeDays.series.isRecorded).toEqual([true, true, false]);
    expect(threeDays.coverage[0]).toMatchObject({ periodHours: 72, recordedHours: 3 });
    // A period still running counts only the whole hours gone by.
    const running = await loadReviewData(db, {
      period: PERIOD,
      cluster: "zz-review-c1",
      nowSec: T0 + 5 * H + 600,
    });
    expect(running.coverage[0]).toMatchObject({ periodHours: 5, recordedHours: 2 });
  });

  it("refuses an unknown cluster on the cluster field", async () => {
    const error = await loadReviewData(db, { period: PERIOD, cluster: "nope", nowSec: NOW }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).issues).toEqual([
      { path: "cluster", message: 'No cluster is named "nope".' },
    ]);
  });

  it("has no data for a period without roll-ups", async () => {
    const data = await loadReviewData(db, {
      period: datePeriod("2019-01-01", "2019-01-31")!,
      cluster: "zz-review-c1",
      nowSec: NOW,
    });
    expect(data.hasData).toBe(false);
    expect(data.rows).toEqual([]);
    expect(data.headline.fulfilment).toBeNull();
  });
});

describe("getReview", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Longer than the time readers share one read of the review's version (500 ms). */
  const VERSION_REREAD_MS = 600;

  it("shares an ended period's review until a tick or a budget edit writes", async () => {
    const query = { from: "2020-03-01", to: "2020-03-01", cluster: "zz-review-c1" };
    const first = await getReview(query);
    expect(first.rows.length).toBeGreaterThan(0);
    expect(await getReview(query)).toBe(first);
    expect(await getReview({ ...query, cluster: undefined })).not.toBe(first);

    await db.cluster.update({ where: { id: clusterId }, data: { tickedAt: new Date() } });
    await sleep(VERSION_REREAD_MS);
    const afterTick = await getReview(query);
    expect(afterTick).not.toBe(first);
    expect(afterTick).toEqual(first);

    const parent = await getChildrenState(db, branch.ids["zz-review"]!);
    await setChildren(branch.users.admin, branch.ids["zz-review"]!, {
      version: parent.version,
      reason: "renamed",
      children: parent.children.map((child) =>
        child.name === "solo" ? { ...child, name: "solo-renamed" } : child,
      ),
    });
    await sleep(VERSION_REREAD_MS);
    const afterEdit = await getReview(query);
    expect(afterEdit.rows.map((row) => row.path)).toContain("zz-review/solo-renamed");
  });
});
