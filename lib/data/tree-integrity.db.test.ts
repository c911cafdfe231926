// The database keeps the tree whole for writers that bypass the app's tree lock
// (migration 20261204040000_budget_tree_integrity), and a tick survives a tree it cannot use.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { toErrorResponse } from "../api/respond";
import { createTestBranch, type TestBranch } from "../testing/budget-branch";
import { setChildren } from "./budget-edits";
import { getBudgetTree } from "./budgets";
import { getChildrenState } from "./budget-state";
import { createPrismaClient } from "./db/client";
import { runTick, tickAllClusters } from "./tick/tick";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
let branch: TestBranch;

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  branch = await createTestBranch(db, "zz-integrity");
});
afterAll(async () => {
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith("zz-integrity")),
  });
  await db.$disconnect();
});

/** The error a write throws, as the API would answer it. */
async function answerOf(write: Promise<unknown>): Promise<{ status: number; code: string }> {
  const error = await write.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).not.toBeNull();
  const response = toErrorResponse(error);
  const body = (await response.json()) as { error: { code: string } };
  return { status: response.status, code: body.error.code };
}

describe("the database's own checks", () => {
  it("refuses to remove a budget whose child is live (409), and removes a whole subtree", async () => {
    const projId = branch.ids["zz-integrity/proj"]!;
    expect(
      await answerOf(
        db.budgetNode.update({ where: { id: projId }, data: { removedAt: new Date() } }),
      ),
    ).toEqual({ status: 409, code: "conflict" });
    expect(await db.budgetNode.count({ where: { id: projId, removedAt: null } })).toBe(1);
    // The app removes a subtree in one statement: allowed.
    const bobId = branch.ids["zz-integrity/proj/bob"]!;
    const bobChild = await db.budgetNode.create({
      data: { parentId: bobId, name: "bob-sub", weight: 1 },
    });
    const removed = await db.budgetNode.updateMany({
      where: { id: { in: [bobId, bobChild.id] } },
      data: { removedAt: new Date() },
    });
    expect(removed.count).toBe(2);
  });

  it("refuses a live budget under a removed one (409)", async () => {
    const bobId = branch.ids["zz-integrity/proj/bob"]!;
    expect(
      await answerOf(db.budgetNode.create({ data: { parentId: bobId, name: "late", weight: 1 } })),
    ).toEqual({ status: 409, code: "conflict" });
  });

  it("refuses a queued job on a removed budget and removing a budget with queued work", async () => {
    const bobId = branch.ids["zz-integrity/proj/bob"]!;
    const aliceId = branch.ids["zz-integrity/proj/alice"]!;
    const cluster = await db.cluster.findFirstOrThrow({ select: { id: true } });
    const job = (budgetId: string) => ({
      clusterId: cluster.id,
      budgetId,
      userId: branch.users.researcher.id,
      name: "integrity",
      gpus: 1,
      minRuntimeSec: 0,
      isResumable: true,
      submittedAt: new Date(),
    });
    expect(await answerOf(db.job.create({ data: job(bobId) }))).toEqual({
      status: 409,
      code: "conflict",
    });
    // A finished job of a removed budget is history, and may be written (imports, seeds).
    await db.job.create({ data: { ...job(bobId), state: "completed", endedAt: new Date() } });

    const queued = await db.job.create({ data: job(aliceId), select: { id: true } });
    expect(
      await answerOf(
        db.budgetNode.update({ where: { id: aliceId }, data: { removedAt: new Date() } }),
      ),
    ).toEqual({ status: 409, code: "conflict" });
    await db.job.update({
      where: { id: queued.id },
      data: { state: "cancelled", endedAt: new Date() },
    });
  });
});

describe("a tree the tick cannot use", () => {
  it("skips every cluster's tick with the reason, answers 503 on reads, and recovers", async () => {
    // A name with "/" cannot be part of a path: written past the app's checks, it makes the
    // whole tree unusable.
    const soloId = branch.ids["zz-integrity/solo"]!;
    await db.budgetNode.update({ where: { id: soloId }, data: { name: "so/lo" } });
    try {
      const results = await tickAllClusters({ db });
      const clusters = await db.cluster.count();
      expect(results).toHaveLength(clusters);
      for (const result of results) {
        expect(result.isSkipped).toBe(true);
        expect(result.skipReason).toMatch(/so\/lo/);
      }
      expect(await answerOf(getBudgetTree())).toEqual({ status: 503, code: "unavailable" });
    } finally {
      await db.budgetNode.update({ where: { id: soloId }, data: { name: "solo" } });
    }
    const cluster = await db.cluster.findFirstOrThrow({ select: { name: true } });
    const after = await runTick(cluster.name, { db });
    expect(after.skipReason).toBeUndefined();
  });
});
