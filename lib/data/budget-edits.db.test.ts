import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { expectAppError } from "../testing/expect-app-error";
import { createTestBranch, type TestBranch } from "../testing/budget-branch";
import { setChildren } from "./budget-edits";
import { getNodeHistory } from "./budget-history";
import { getChildrenState } from "./budget-state";
import { getBudgetTree } from "./budgets";
import { createPrismaClient } from "./db/client";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
let branch: TestBranch;

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  branch = await createTestBranch(db, "zz-edits");
});
afterAll(async () => {
  // Leave the shared database's tree as the demo seed made it: drop this file's programs.
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith("zz-edits")),
  });
  await db.$disconnect();
});

describe("setChildren: one transaction", () => {
  it("reweights, renames, adds and removes children together, with history rows", async () => {
    const projId = branch.ids["zz-edits/proj"]!;
    const before = await getChildrenState(db, projId);
    const [alice, bob] = before.children;
    const result = await setChildren(branch.users.pi, projId, {
      version: before.version,
      reason: "Alice leads the new run; Bob moved to eval",
      children: [
        { id: alice!.id, name: "alice.w", weight: 3 },
        { name: "carol", weight: 1 },
      ],
    });
    expect(result.version).toBe(before.version + 1);
    expect(result.children.map(({ name, weight }) => ({ name, weight }))).toEqual([
      { name: "alice.w", weight: 3 },
      { name: "carol", weight: 1 },
    ]);
    expect(result.warnings).toEqual([]);

    const tree = await getBudgetTree();
    const proj = tree.find((node) => node.id === projId)!;
    expect(tree.find((node) => node.id === bob!.id)).toBeUndefined();
    const aliceNow = tree.find((node) => node.id === alice!.id)!;
    expect(aliceNow.fraction).toBe(0.75);
    expect(aliceNow.effectiveShare).toBeCloseTo(proj.effectiveShare * 0.75, 12);
    // Bob leaves the tree but keeps his row, his history and his place for reports.
    const bobRow = await db.budgetNode.findUniqueOrThrow({ where: { id: bob!.id } });
    expect(bobRow.removedAt).not.toBeNull();

    const change = await db.allocationChange.findUniqueOrThrow({
      where: { id: result.changeId! },
      include: { weights: { orderBy: { weightAfter: "asc" } } },
    });
    expect(change).toMatchObject({
      kind: "children",
      nodeId: projId,
      userId: branch.users.pi.id,
      reason: "Alice leads the new run; Bob moved to eval",
      before: [
        { id: alice!.id, name: "alice", weight: 1 },
        { id: bob!.id, name: "bob", weight: 1 },
      ],
    });
    const carolId = result.children[1]!.id;
    expect(
      change.weights.map(({ nodeId, weightBefore, weightAfter }) => ({
        nodeId,
        weightBefore,
        weightAfter,
      })),
    ).toEqual(
      expect.arrayContaining([
        { nodeId: alice!.id, weightBefore: 1, weightAfter: 3 },
        { nodeId: carolId, weightBefore: null, weightAfter: 1 },
        { nodeId: bob!.id, weightBefore: 1, weightAfter: null },
      ]),
    );
    expect(change.weights).toHaveLength(3);
  });

  it("removes a child's whole subtree, and a new child may take a removed child's name", async () => {
    const programId = branch.ids["zz-edits"]!;
    const state = await getChildrenState(db, programId);
    const solo = state.children.find((child) => child.name === "solo")!;
    const removed = await setChildren(branch.users.programLead, programId, {
      version: state.version,
      reason: "fold proj into solo",
      children: [solo],
    });
    const live = await db.budgetNode.count({
      where: { parentId: branch.ids["zz-edits/proj"], removedAt: null },
    });
    expect(live).toBe(0);
    const again = await setChildren(branch.users.programLead, programId, {
      version: removed.version,
      reason: "proj is back",
      children: [solo, { name: "proj", weight: 1 }],
    });
    expect(again.children.map((child) => child.name)).toEqual(["solo", "proj"]);
    expect(again.children[1]!.id).not.toBe(branch.ids["zz-edits/proj"]);
  });

  it("warns, but saves, when every child weighs 0", async () => {
    const otherId = branch.ids["zz-edits-other"]!;
    const state = await getChildrenState(db, otherId);
    const result = await setChildren(branch.users.admin, otherId, {
      version: state.version,
      reason: "pause",
      children: state.children.map((child) => ({ ...child, weight: 0 })),
    });
    expect(result.warnings).toEqual([expect.stringContaining("Every child weighs 0")]);
  });
});

describe("setChildren: no lost updates", () => {
  it("answers 409 with the current state for a stale version, and writes nothing", async () => {
    const programId = branch.ids["zz-edits"]!;
    const state = await getChildrenState(db, programId);
    const changes = await db.allocationChange.count();
    const error = await expectAppError(
      setChildren(branch.users.programLead, programId, {
        version: state.version - 1,
        reason: "stale",
        children: state.children.map((child) => ({ ...child, weight: 9 })),
      }),
      "conflict",
    );
    expect(error.status).toBe(409);
    expect(error.details).toEqual({ kind: "stale-version", ...state });
    expect(await getChildrenState(db, programId)).toEqual(state);
    expect(await db.allocationChange.count()).toBe(changes);
  });

  it("lets exactly one of two concurrent saves of the same version through", async () => {
    const programId = branch.ids["zz-edits"]!;
    const state = await getChildrenState(db, programId);
    const save = (weight: number) =>
      setChildren(branch.users.programLead, programId, {
        version: state.version,
        reason: `race ${weight}`,
        children: state.children.map((child) => ({ ...child, weight })),
      });
    const outcomes = await Promise.allSettled([save(5), save(7)]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const rejected = outcomes.find((outcome) => outcome.status === "rejected");
    expect((rejected as PromiseRejectedResult).reason).toMatchObject({ code: "conflict" });
    expect((await getChildrenState(db, programId)).version).toBe(state.version + 1);
  });

  it("saves a split sent as it is as unchanged: same version (no conflict for others), no history", async () => {
    const programId = branch.ids["zz-edits"]!;
    const state = await getChildrenState(db, programId);
    const changes = await db.allocationChange.count({ where: { nodeId: programId } });
    const result = await setChildren(branch.users.programLead, programId, {
      version: state.version,
      reason: "opened the editor and pressed save",
      children: state.children.map(({ id, name, weight }) => ({ id, name, weight })).reverse(),
    });
    expect(result).toMatchObject({ changed: false, changeId: null, version: state.version });
    expect(await getChildrenState(db, programId)).toEqual(state);
    expect(await db.allocationChange.count({ where: { nodeId: programId } })).toBe(changes);
  });
});

describe("setChildren: refusals", () => {
  it("refuses to remove a child with pending or running jobs, naming them", async () => {
    const programId = branch.ids["zz-edits"]!;
    const state = await getChildrenState(db, programId);
    const solo = state.children.find((child) => child.name === "solo")!;
    const cluster = await db.cluster.findFirstOrThrow({ select: { id: true } });
    const job = await db.job.create({
      data: {
        clusterId: cluster.id,
        budgetId: solo.id,
        userId: branch.users.pi.id,
        name: "busy",
        gpus: 8,
        minRuntimeSec: 3600,
        isResumable: true,
      },
    });
    const running = await db.job.create({
      data: {
        clusterId: cluster.id,
        budgetId: solo.id,
        userId: branch.users.pi.id,
        name: "busy too",
        gpus: 8,
        minRuntimeSec: 3600,
        isResumable: true,
        state: "running",
      },
    });
    const without = state.children.filter((child) => child.id !== solo.id);
    const error = await expectAppError(
      setChildren(branch.users.programLead, programId, {
        version: state.version,
        reason: "drop solo",
        children: without,
      }),
      "conflict",
    );
    // One entry a budget, its states together.
    expect(error.message).toContain("(solo: 1 pending and 1 running)");
    expect(error.details).toMatchObject({ kind: "active-jobs" });
    expect(await getChildrenState(db, programId)).toEqual(state);

    // Once the job is over, the budget can go; the job keeps pointing at it.
    await db.job.updateMany({
      where: { id: { in: [job.id, running.id] } },
      data: { state: "completed" },
    });
    await setChildren(branch.users.programLead, programId, {
      version: state.version,
      reason: "drop solo",
      children: without,
    });
    expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).budgetId).toBe(solo.id);
  });

  it("refuses to split a leaf that has running jobs: they would be charged to an inner node", async () => {
    const leafId = branch.ids["zz-edits-other/other-proj"]!;
    const cluster = await db.cluster.findFirstOrThrow({ select: { id: true } });
    const job = await db.job.create({
      data: {
        clusterId: cluster.id,
        budgetId: leafId,
        userId: branch.users.researcher.id,
        name: "running",
        gpus: 8,
        minRuntimeSec: 0,
        isResumable: false,
        state: "running",
      },
    });
    const state = await getChildrenState(db, leafId);
    const split = () =>
      setChildren(branch.users.admin, leafId, {
        version: state.version,
        reason: "split",
        children: [{ name: "part", weight: 1 }],
      });
    const error = await expectAppError(split(), "conflict");
    expect(error.message).toBe(
      "Cannot split a budget that has pending or running jobs (other-proj: 1 running). Let them finish or cancel them first.",
    );
    await db.job.update({ where: { id: job.id }, data: { state: "failed" } });
    expect((await split()).children.map((child) => child.name)).toEqual(["part"]);
  });

  it("refuses a child of another parent as never one, and a removed child as gone (422)", async () => {
    const programId = branch.ids["zz-edits-other"]!;
    const start = await getChildrenState(db, programId);
    const added = await setChildren(branch.users.admin, programId, {
      version: start.version,
      reason: "a short-lived child",
      children: [...start.children, { name: "brief", weight: 1 }],
    });
    const briefId = added.children.find((child) => child.name === "brief")!.id;
    await setChildren(branch.users.admin, programId, {
      version: added.version,
      reason: "brief goes",
      children: start.children,
    });
    const state = await getChildrenState(db, programId);
    const error = await expectAppError(
      setChildren(branch.users.admin, programId, {
        version: state.version,
        reason: "steal",
        children: [
          { id: branch.ids["zz-edits/solo"]!, name: "x", weight: 1 },
          { id: briefId, name: "brief", weight: 1 },
        ],
      }),
      "validation_failed",
    );
    expect(error.issues).toEqual([
      { path: "children.0.id", message: 'Child 1 ("x") is not a child of this budget.' },
      {
        path: "children.1.id",
        message: 'Child 2 ("brief") is not a child of this budget any more: it was removed.',
      },
    ]);
    expect(await getChildrenState(db, programId)).toEqual(state);
  });
});

describe("history", () => {
  it("lists a node's changes newest first with who, why, before and after", async () => {
    const history = await getNodeHistory(branch.ids["zz-edits"]!, branch.users.admin);
    expect(history.changes.map((change) => change.reason).slice(0, 2)).toEqual([
      "drop solo",
      expect.stringMatching(/^race /),
    ]);
    expect(history.changes[0]).toMatchObject({ kind: "children", by: "zz-edits programLead" });
  });
});
