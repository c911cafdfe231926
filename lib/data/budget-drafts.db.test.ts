import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { expectAppError } from "../testing/expect-app-error";
import { createTestBranch, type TestBranch } from "../testing/budget-branch";
import { runScheduler } from "../simulations/run-scenario";
import { prepareWhatIf, summariseWhatIf } from "../simulations/worker/what-if-run";
import { adoptDraft, createDraft, getDraft, listDrafts } from "./budget-drafts";
import { setChildren } from "./budget-edits";
import { getChildrenState } from "./budget-state";
import { createPrismaClient } from "./db/client";
import {
  discardDraft,
  getDraftWithWhatIfs,
  getWhatIfForEditor,
  insertWhatIf,
} from "../simulations/store/what-ifs";
import { loadDemandJobs } from "../simulations/store/what-if-store";
import { startWhatIf } from "../simulations/start/start-what-if";

const databaseUrl = process.env.DATABASE_URL!;
const db = createPrismaClient(databaseUrl, 2);
let branch: TestBranch;
const LABEL = "zz-drafts";

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  branch = await createTestBranch(db, LABEL);
});
afterAll(async () => {
  await db.budgetDraft.deleteMany({ where: { nodeId: { in: Object.values(branch.ids) } } });
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith(LABEL)),
  });
  await db.$disconnect();
});

async function programSplit() {
  return getChildrenState(db, branch.ids[LABEL]!);
}

describe("drafts", () => {
  it("keeps a proposed split without touching the live tree, for leads and admins only", async () => {
    const before = await programSplit();
    const [proj, solo] = before.children;
    const draft = await createDraft(branch.users.programLead, branch.ids[LABEL]!, {
      version: before.version,
      reason: "more for solo",
      children: [
        { id: proj!.id, name: "proj", weight: 1 },
        { id: solo!.id, name: "solo", weight: 3 },
      ],
    });
    expect(draft).toMatchObject({
      basedOnVersion: before.version,
      adoptedAt: null,
      whatIfCount: 0,
    });
    expect(await programSplit()).toEqual(before);

    // The PI leads proj, not the program: no drafts of the program's split, not even to read.
    await expectAppError(
      createDraft(branch.users.pi, branch.ids[LABEL]!, { ...before, reason: "x" }),
      "forbidden",
    );
    await expectAppError(listDrafts(branch.users.researcher, branch.ids[LABEL]!), "forbidden");
    await expectAppError(getDraft(branch.users.outsider, draft.id), "forbidden");
    expect(
      (await listDrafts(branch.users.admin, branch.ids[LABEL]!)).drafts.map((d) => d.id),
    ).toContain(draft.id);
    const view = await getDraftWithWhatIfs(branch.users.programLead, draft.id);
    expect(view).toMatchObject({ isStale: false, currentVersion: before.version, whatIfs: [] });
    expect(view.currentChildren.map((child) => child.weight)).toEqual([2, 1]);
  });

  it("validates like a real edit: 422 with the field path, 409 on a stale version, 404", async () => {
    const before = await programSplit();
    const error = await expectAppError(
      createDraft(branch.users.programLead, branch.ids[LABEL]!, {
        version: before.version,
        reason: "x",
        children: [{ id: branch.ids[`${LABEL}-other/other-proj`]!, name: "p", weight: 1 }],
      }),
      "validation_failed",
    );
    expect(error.issues).toEqual([{ path: "children.0.id", message: expect.any(String) }]);
    const stale = await expectAppError(
      createDraft(branch.users.programLead, branch.ids[LABEL]!, {
        version: before.version - 1,
        reason: "x",
        children: before.children,
      }),
      "conflict",
    );
    expect(stale.details).toMatchObject({ kind: "stale-version", version: before.version });
    await expectAppError(getDraft(branch.users.admin, "no-such-draft"), "not_found");
  });

  it("refuses a what-if that starts after now, saying now in the app's one time format", async () => {
    const before = await programSplit();
    const draft = await createDraft(branch.users.programLead, branch.ids[LABEL]!, {
      version: before.version,
      reason: "future what-if",
      children: before.children,
    });
    const fromMs = Date.now() + 30 * 86_400_000;
    const error = await expectAppError(
      startWhatIf(branch.users.programLead, draft.id, {
        from: new Date(fromMs),
        to: new Date(fromMs + 5 * 86_400_000),
      }),
      "validation_failed",
    );
    expect(error.message).toBe("The period has not started yet.");
    expect(error.issues).toEqual([
      {
        path: "from",
        message: expect.stringMatching(
          /^Choose a start before now \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)\.$/,
        ),
      },
    ]);
  });

  it("refuses at once a what-if splitting a leaf that had jobs in the period, naming one", async () => {
    const soloId = branch.ids[`${LABEL}/solo`]!;
    const solo = await getChildrenState(db, soloId);
    const cluster = await db.cluster.findFirstOrThrow({ where: { name: "b300" } });
    const dayMs = 86_400_000;
    const job = await db.job.create({
      data: {
        clusterId: cluster.id,
        budgetId: soloId,
        userId: branch.users.pi.id,
        name: "zz solo job",
        gpus: 1,
        minRuntimeSec: 600,
        isResumable: true,
        state: "completed",
        submittedAt: new Date(Date.now() - 3 * dayMs),
        endedAt: new Date(Date.now() - 2 * dayMs),
      },
    });
    try {
      const draft = await createDraft(branch.users.pi, soloId, {
        version: solo.version,
        reason: "split solo in two",
        children: [
          { name: "solo-a", weight: 1 },
          { name: "solo-b", weight: 1 },
        ],
      });
      const error = await expectAppError(
        startWhatIf(branch.users.pi, draft.id, {
          from: new Date(Date.now() - 4 * dayMs),
          to: new Date(Date.now() - dayMs),
          clusters: ["b300"],
        }),
        "validation_failed",
      );
      expect(error.issues).toEqual([
        {
          path: "children",
          message: `solo had jobs in the period (job ${job.id}), and only leaves are charged: under this split their work would have no budget. Replay a period in which solo had no jobs.`,
        },
      ]);
    } finally {
      await db.job.delete({ where: { id: job.id } });
    }
  });

  it("adopts through the normal edit with a history entry, once; a moved split gives 409", async () => {
    const before = await programSplit();
    const [proj, solo] = before.children;
    const make = (weight: number) =>
      createDraft(branch.users.programLead, branch.ids[LABEL]!, {
        version: before.version,
        reason: `solo to ${weight}`,
        children: [
          { id: proj!.id, name: "proj", weight: 2 },
          { id: solo!.id, name: "solo", weight },
        ],
      });
    const first = await make(5);
    const second = await make(7);
    const adopted = await adoptDraft(branch.users.programLead, first.id, "eval needs it");
    expect(adopted.version).toBe(before.version + 1);
    expect(adopted.children.map((child) => child.weight)).toEqual([2, 5]);
    const change = await db.allocationChange.findUniqueOrThrow({
      where: { id: adopted.changeId! },
      include: { weights: true },
    });
    expect(change.reason).toMatch(/^Adopted the draft of \d{4}-\d{2}-\d{2}: eval needs it$/);
    expect(change.userId).toBe(branch.users.programLead.id);
    expect(change.weights).toEqual([
      expect.objectContaining({ nodeId: solo!.id, weightBefore: 1, weightAfter: 5 }),
    ]);
    const row = await db.budgetDraft.findUniqueOrThrow({ where: { id: first.id } });
    expect(row.adoptedChangeId).toBe(adopted.changeId);
    expect(row.adoptedAt).not.toBeNull();

    const again = await expectAppError(
      adoptDraft(branch.users.programLead, first.id, "again"),
      "conflict",
    );
    expect(again.details).toEqual({ kind: "already-adopted" });
    const stale = await expectAppError(
      adoptDraft(branch.users.programLead, second.id, "stale"),
      "conflict",
    );
    expect(stale.details).toMatchObject({ kind: "stale-version", version: before.version + 1 });
    // Nothing of the refused adoption was written: the draft is still open, the split unchanged.
    expect(
      (await db.budgetDraft.findUniqueOrThrow({ where: { id: second.id } })).adoptedAt,
    ).toBeNull();
    expect((await programSplit()).children.map((child) => child.weight)).toEqual([2, 5]);
    expect((await getDraft(branch.users.programLead, second.id)).isStale).toBe(true);
    await expectAppError(adoptDraft(branch.users.pi, second.id, "not mine"), "forbidden");
  });

  it("discards a draft with its what-ifs, but not an adopted one nor one with a what-if running", async () => {
    const before = await programSplit();
    const draftOf = (reason: string) =>
      createDraft(branch.users.programLead, branch.ids[LABEL]!, {
        version: before.version,
        reason,
        children: before.children.map(({ id, name, weight }) => ({ id, name, weight: weight + 1 })),
      });
    const whatIf = (draftId: string) =>
      insertWhatIf({
        userId: branch.users.programLead.id,
        draftId,
        name: "November 2026",
        options: { from: "2026-11-01", to: "2026-12-01", clusters: [] },
      });
    const idle = await draftOf("to discard");
    const finished = await whatIf(idle.id);
    await db.simulation.update({ where: { id: finished }, data: { status: "done" } });
    await expectAppError(discardDraft(branch.users.pi, idle.id), "forbidden");

    const busy = await draftOf("what-if running");
    const running = await whatIf(busy.id);
    const refused = await expectAppError(
      discardDraft(branch.users.programLead, busy.id),
      "conflict",
    );
    expect(refused.details).toEqual({ kind: "what-if-running" });
    expect(await db.simulation.count({ where: { id: running } })).toBe(1);

    expect(await discardDraft(branch.users.programLead, idle.id)).toEqual({
      id: idle.id,
      nodeId: branch.ids[LABEL],
    });
    expect(await db.budgetDraft.count({ where: { id: idle.id } })).toBe(0);
    expect(await db.simulation.count({ where: { id: finished } })).toBe(0);
    await expectAppError(discardDraft(branch.users.programLead, idle.id), "not_found");

    // A what-if whose worker went silent (shown as failed after 15 minutes) does not hold it.
    const stale = await draftOf("what-if left running by a worker that died");
    const dead = await whatIf(stale.id);
    await db.$executeRaw`UPDATE simulations SET status = 'running',
      "updatedAt" = now() - interval '20 minutes' WHERE id = ${dead}`;
    expect((await discardDraft(branch.users.programLead, stale.id)).id).toBe(stale.id);
    expect(await db.simulation.count({ where: { id: dead } })).toBe(0);

    await db.simulation.update({ where: { id: running }, data: { status: "failed" } });
    await adoptDraft(branch.users.admin, busy.id, "adopted before the discard");
    const kept = await expectAppError(discardDraft(branch.users.admin, busy.id), "conflict");
    expect(kept.details).toEqual({ kind: "already-adopted" });
    expect(await db.budgetDraft.count({ where: { id: busy.id } })).toBe(1);
    expect((await programSplit()).version).toBe(before.version + 1);
  });

  it("an adopted draft keeps the split it replaced and the one it made, new budgets with ids", async () => {
    const before = await programSplit();
    const draft = await createDraft(branch.users.programLead, branch.ids[LABEL]!, {
      version: before.version,
      reason: "a new budget",
      children: [
        ...before.children.map(({ id, name, weight }) => ({ id, name, weight })),
        { name: "extra", weight: 1 },
      ],
    });
    expect((await getDraft(branch.users.programLead, draft.id)).adoption).toBeNull();
    await adoptDraft(branch.users.programLead, draft.id, "extra work");
    const adopted = await getDraft(branch.users.programLead, draft.id);
    const after = await programSplit();
    expect(adopted.adoption).toEqual({ before: before.children, after: after.children });
    const extra = after.children.find((child) => child.name === "extra");
    expect(extra?.id).toEqual(expect.any(String));
    expect(before.children.some((child) => child.id === extra?.id)).toBe(false);
    // The split as it was, for the replays below.
    await setChildren(branch.users.programLead, branch.ids[LABEL]!, {
      version: after.version,
      reason: "test: extra removed",
      children: before.children,
    });
  });
});

describe("what-if demand and replay", () => {
  const FROM = new Date("2020-03-01T00:00:00Z");
  const TO = new Date("2020-03-02T00:00:00Z");
  const at = (hours: number) => new Date(FROM.getTime() + hours * 3_600_000);

  it("reads the period's demand (carried over included, ended before left out) and replays a draft", async () => {
    const cluster = await db.cluster.findUniqueOrThrow({ where: { name: "b300" } });
    const userId = branch.users.researcher.id;
    const base = { clusterId: cluster.id, userId, isResumable: true, minRuntimeSec: 3600 };
    const alice = branch.ids[`${LABEL}/proj/alice`]!;
    const soloId = branch.ids[`${LABEL}/solo`]!;
    const jobs = [
      {
        id: "zzd-in",
        budgetId: alice,
        submittedAt: at(1),
        firstStartedAt: at(2),
        endedAt: at(6),
        workSec: 4 * 3600,
        gpus: 8,
        state: "completed",
        name: "in",
      },
      {
        id: "zzd-solo",
        budgetId: soloId,
        submittedAt: at(3),
        workSec: 2 * 3600,
        gpus: 16,
        state: "pending",
        name: "solo",
      },
      {
        id: "zzd-carried",
        budgetId: alice,
        submittedAt: at(-2),
        firstStartedAt: at(-1),
        endedAt: at(3),
        workSec: 4 * 3600,
        gpus: 8,
        state: "completed",
        name: "carried",
      },
      {
        id: "zzd-gone",
        budgetId: alice,
        submittedAt: at(-5),
        firstStartedAt: at(-4),
        endedAt: at(-1),
        workSec: 3600,
        gpus: 8,
        state: "completed",
        name: "gone",
      },
      {
        id: "zzd-late",
        budgetId: alice,
        submittedAt: at(30),
        workSec: 3600,
        gpus: 8,
        state: "pending",
        name: "late",
      },
    ] as const;
    for (const job of jobs) await db.job.create({ data: { ...base, ...job } });
    await db.run.create({
      data: {
        jobId: "zzd-carried",
        clusterId: cluster.id,
        budgetId: alice,
        gpus: 8,
        placement: [{ node: 0, gpus: 8 }],
        isAllocated: false,
        startedAt: at(-1),
        protectedUntil: at(-1),
        endedAt: at(3),
        endReason: "completed",
      },
    });
    const demand = await loadDemandJobs(db, { from: FROM, to: TO, clusters: ["b300"] });
    expect(demand.map((job) => job.id)).toEqual(["zzd-carried", "zzd-in", "zzd-solo"]);
    expect(demand[0]!.runs).toEqual([
      { startedAtSec: at(-1).getTime() / 1000, endedAtSec: at(3).getTime() / 1000 },
    ]);

    const before = await programSplit();
    const draft = await createDraft(branch.users.programLead, branch.ids[LABEL]!, {
      version: before.version,
      reason: "all to proj",
      children: before.children.map((child) => ({
        ...child,
        weight: child.name === "proj" ? 1 : 0,
      })),
    });
    // Stored before the control was optional (no hasControl): the current split is replayed.
    const runId = await insertWhatIf({
      userId: branch.users.programLead.id,
      draftId: draft.id,
      name: "test period",
      options: { from: FROM.toISOString(), to: TO.toISOString(), clusters: ["b300"] },
    });
    const prepared = await prepareWhatIf(
      db,
      draft.id,
      (await db.simulation.findUniqueOrThrow({ where: { id: runId } })).options,
      TO.getTime() / 1000,
    );
    expect(prepared.ok).toBe(true);
    if (!prepared.ok || !prepared.control) throw new Error("expected both replays");
    expect(prepared.control.jobs.map((job) => [job.id, job.submitSec, job.workSec])).toEqual([
      ["zzd-carried", 0, 3 * 3600],
      ["zzd-in", 3600, 4 * 3600],
      ["zzd-solo", 3 * 3600, 2 * 3600],
    ]);
    const replay = (scenario: typeof prepared.control) => {
      const outcome = runScheduler(scenario, "allocation", { isTimelineWanted: false });
      return {
        summary: outcome.summary as never,
        waits: outcome.report.jobs.map((job) => job.waitSec),
      };
    };
    const summary = summariseWhatIf(prepared, replay(prepared.control), replay(prepared.draft), 0);
    expect(summary.happenedSource).toBe("none");
    expect(summary.current).not.toBeNull();
    expect(summary.stats).toMatchObject({ jobs: 3, carriedOver: 1 });
    const byLabel = new Map(summary.rows.map((row) => [row.label, row]));
    // Every level of the branch (no weight is recorded in 2020: the live tree stands in).
    expect([...byLabel.keys()]).toEqual([LABEL, "proj", "proj/alice", "proj/bob", "solo"]);
    // 88 GPUs on b300: everything runs at once; alice received 3 h x 8 + 4 h x 8 GPU-hours.
    expect(byLabel.get("proj/alice")!.current!.receivedGpuHours).toBe(56);
    expect(byLabel.get("solo")!.draft.receivedGpuHours).toBe(32);
    expect(byLabel.get(LABEL)!.draft.receivedGpuHours).toBe(88);
    // Waits count jobs submitted in the period only (2 of 3), both started at once.
    expect(byLabel.get(LABEL)!.current!.waits).toEqual({
      training: { jobs: 2, p50Sec: 0, p90Sec: 0 },
    });
    // Without the control: the draft's replay alone, the same figures for it.
    const period = { from: FROM.toISOString(), to: TO.toISOString(), clusters: ["b300"] };
    const alone = await prepareWhatIf(
      db,
      draft.id,
      { ...period, hasControl: false },
      TO.getTime() / 1000,
    );
    if (!alone.ok) throw new Error(alone.message);
    expect(alone.control).toBeNull();
    const draftOnly = summariseWhatIf(alone, null, replay(alone.draft), 0);
    expect(draftOnly.current).toBeNull();
    expect(draftOnly.rows.map((row) => [row.label, row.current, row.draft])).toEqual(
      summary.rows.map((row) => [row.label, null, row.draft]),
    );
    await expectAppError(getWhatIfForEditor(branch.users.pi, draft.id, runId), "forbidden");
    expect(
      (await getWhatIfForEditor(branch.users.programLead, draft.id, runId)).options.clusters,
    ).toEqual(["b300"]);
    await db.job.deleteMany({ where: { id: { in: jobs.map((job) => job.id) } } });
  });

  it("shows what happened from the hourly roll-ups, each hour under the weights then in force", async () => {
    const cluster = await db.cluster.findUniqueOrThrow({ where: { name: "b300" } });
    const root = await db.budgetNode.findFirstOrThrow({ where: { parentId: null } });
    const id = (path: string) => branch.ids[path]!;
    // In 2020 only this branch existed, with the program at weight 1 (its weight now is 0).
    const history = [
      [root.id, 1],
      [id(LABEL), 1],
      [id(`${LABEL}/proj`), 2],
      [id(`${LABEL}/proj/alice`), 1],
      [id(`${LABEL}/proj/bob`), 1],
      [id(`${LABEL}/solo`), 1],
    ] as const;
    const weights = await Promise.all(
      history.map(([nodeId, weight]) =>
        db.weightChange.create({
          data: {
            nodeId,
            at: new Date("2020-01-01T00:00:00Z"),
            weightBefore: null,
            weightAfter: weight,
          },
        }),
      ),
    );
    const hour = (budgetId: string, demandGpuSec: number, allocatedGpuSec: number) => ({
      clusterId: cluster.id,
      budgetId,
      hourStart: at(5),
      demandGpuSec,
      allocatedGpuSec,
      unallocatedGpuSec: 0,
      healthyCapacityGpuSec: 88 * 3600,
    });
    await db.usageHourly.createMany({
      data: [
        hour(id(`${LABEL}/proj/alice`), 8 * 3600, 8 * 3600),
        hour(id(`${LABEL}/solo`), 16 * 3600, 8 * 3600),
      ],
    });
    try {
      const before = await programSplit();
      const draft = await createDraft(branch.users.programLead, branch.ids[LABEL]!, {
        version: before.version,
        reason: "happened",
        children: before.children,
      });
      const options = {
        from: FROM.toISOString(),
        to: TO.toISOString(),
        clusters: ["b300"],
        hasControl: false,
      };
      const prepared = await prepareWhatIf(db, draft.id, options, TO.getTime() / 1000);
      expect(prepared.ok).toBe(true);
      if (!prepared.ok) return;
      const empty = {
        summary: runScheduler(prepared.draft, "allocation", { isTimelineWanted: false }).summary,
        waits: [],
      };
      const summary = summariseWhatIf(prepared, null, empty, 0);
      expect(summary.happenedSource).toBe("roll-ups");
      const happened = new Map(summary.rows.map((row) => [row.label, row.happened]));
      // Shares then: proj 2/3 of 1, alice 1/2 of it; solo 1/3. Capacity 88 GPU-hours.
      expect(happened.get("proj/alice")).toMatchObject({
        effectiveShare: expect.closeTo(1 / 3, 9),
        entitledGpuHours: 8,
        receivedGpuHours: 8,
        fulfilment: 1,
      });
      expect(happened.get("solo")).toMatchObject({
        entitledGpuHours: 16,
        receivedGpuHours: 8,
        fulfilment: 0.5,
      });
      expect(happened.get(LABEL)).toMatchObject({
        entitledGpuHours: 24,
        receivedGpuHours: 16,
        fulfilment: expect.closeTo(2 / 3, 9),
      });
      // The project's row is the review's: alice's 8 of 8 (bob had no demand).
      expect(happened.get("proj")).toMatchObject({ entitledGpuHours: 8, fulfilment: 1 });
    } finally {
      await db.usageHourly.deleteMany({ where: { clusterId: cluster.id, hourStart: at(5) } });
      await db.weightChange.deleteMany({ where: { id: { in: weights.map((row) => row.id) } } });
    }
  });
});
