import { describe, expect, it } from "vitest";
import type { BudgetNode } from "../../engine/types";
import { parseScenario } from "../../sim";
import {
  applyDraftForReplay,
  buildDemandScenarios,
  listActualWaits,
  remainingWorkSec,
  type DemandCluster,
  type DemandJob,
  type DemandScenarioInput,
} from "./demand-scenario";

const H = 3600;
const FROM = 1_000_000;
const TO = FROM + 24 * H;

const TREE: BudgetNode[] = [
  { id: "root", parentId: null, name: "lab", weight: 1 },
  { id: "lang", parentId: "root", name: "language", weight: 3 },
  { id: "pre", parentId: "lang", name: "lm-pretrain", weight: 2 },
  { id: "eval", parentId: "lang", name: "lm-eval", weight: 1 },
  { id: "vis", parentId: "root", name: "vision", weight: 1 },
];

const CLUSTER: DemandCluster = {
  name: "h100",
  gpuType: "H100",
  lookbackSec: 7 * 86_400,
  maxMinRuntimeSec: 8 * H,
  nodes: [
    { index: 0, gpus: 8, health: "healthy", healthChangedAtSec: 0 },
    { index: 1, gpus: 8, health: "down", healthChangedAtSec: FROM - H },
    { index: 2, gpus: 8, health: "draining", healthChangedAtSec: FROM + 2 * H },
    { index: 3, gpus: 8, health: "down", healthChangedAtSec: TO + H },
  ],
};

function job(overrides: Partial<DemandJob> & Pick<DemandJob, "id">): DemandJob {
  return {
    budgetId: "pre",
    cluster: "h100",
    userId: "u1",
    submittedAtSec: FROM + H,
    gpus: 8,
    minRuntimeSec: H,
    isResumable: true,
    priority: "normal",
    jobClass: "training",
    workSec: 4 * H,
    firstStartedAtSec: null,
    endedAtSec: null,
    runs: [],
    ...overrides,
  };
}

function input(jobs: DemandJob[], overrides: Partial<DemandScenarioInput> = {}) {
  return {
    fromSec: FROM,
    toSec: TO,
    nowSec: TO + 10 * H,
    tree: TREE,
    nodeId: "lang",
    draftChildren: [
      { id: "pre", name: "lm-pretrain", weight: 1 },
      { id: "eval", name: "evaluation", weight: 3 },
    ],
    clusters: [CLUSTER],
    jobs,
    ...overrides,
  } satisfies DemandScenarioInput;
}

describe("buildDemandScenarios", () => {
  it("replays jobs of the period at their offsets with their contract, under both trees", () => {
    const result = buildDemandScenarios(
      input([
        job({ id: "a", submittedAtSec: FROM + 2 * H, gpus: 16, minRuntimeSec: 2 * H }),
        job({ id: "b", budgetId: "eval", submittedAtSec: FROM + 30, workSec: 600, gpus: 1 }),
        job({ id: "c", budgetId: "vis", isResumable: false, priority: "high", jobClass: "debug" }),
      ]),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.control.jobs).toEqual([
      {
        id: "b",
        budget: "lang/eval",
        cluster: "h100",
        user: "u1",
        submit: 30,
        gpus: 1,
        work: 600,
        minRuntime: H,
        resumable: true,
        priority: "normal",
        class: "training",
      },
      expect.objectContaining({
        id: "c",
        budget: "vis",
        submit: H,
        resumable: false,
        priority: "high",
        class: "debug",
      }),
      expect.objectContaining({
        id: "a",
        budget: "lang/pre",
        submit: 2 * H,
        gpus: 16,
        minRuntime: 2 * H,
        work: 4 * H,
      }),
    ]);
    expect(result.draft.jobs).toBe(result.control.jobs);
    expect(result.control.tree).toEqual({
      name: "root",
      weight: 1,
      children: [
        {
          name: "lang",
          weight: 3,
          children: [
            { name: "pre", weight: 2 },
            { name: "eval", weight: 1 },
          ],
        },
        { name: "vis", weight: 1 },
      ],
    });
    expect(result.draft.tree.children?.[0]?.children).toEqual([
      { name: "pre", weight: 1 },
      { name: "eval", weight: 3 },
    ]);
    expect(result.control.horizon).toBe(24 * H);
    expect(result.control.clusters).toEqual([
      { name: "h100", gpuType: "H100", nodes: 4, gpusPerNode: 8 },
    ]);
    expect(result.stats).toEqual({
      jobs: 3,
      carriedOver: 0,
      workFromObserved: 0,
      gpuHoursRequested: 96.2,
    });
    expect(parseScenario(result.control).ok).toBe(true);
    expect(parseScenario(result.draft).ok).toBe(true);
  });

  it("takes node health from the cluster: down before the period from 0, later changes at their time, none after", () => {
    const result = buildDemandScenarios(input([]));
    expect(result.ok && result.control.nodeEvents).toEqual([
      { at: 0, cluster: "h100", node: 1, state: "down" },
      { at: 2 * H, cluster: "h100", node: 2, state: "draining" },
    ]);
  });

  it("carries over work pending or running at the start with what it had left (edge: ended before the start)", () => {
    const result = buildDemandScenarios(
      input([
        // Resumable, ran 1 h earlier and 30 min into a run still going at the start: 2.5 h left.
        job({
          id: "running",
          submittedAtSec: FROM - 5 * H,
          runs: [
            { startedAtSec: FROM - 4 * H, endedAtSec: FROM - 3 * H },
            { startedAtSec: FROM - 30 * 60, endedAtSec: FROM + H },
          ],
        }),
        job({ id: "pending", submittedAtSec: FROM - H }),
        job({ id: "gone", submittedAtSec: FROM - 5 * H, endedAtSec: FROM - H }),
        job({ id: "late", submittedAtSec: TO }),
      ]),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.control.jobs.map((j) => [j.id, j.submit, j.work])).toEqual([
      ["pending", 0, 4 * H],
      ["running", 0, 2.5 * H],
    ]);
    expect(result.stats.carriedOver).toBe(2);
  });

  it("caps minimum runtimes at the cluster maximum and gpus at the cluster size", () => {
    const result = buildDemandScenarios(
      input([job({ id: "big", gpus: 64, minRuntimeSec: 12 * H })]),
    );
    expect(result.ok && result.control.jobs[0]).toMatchObject({ gpus: 32, minRuntime: 8 * H });
  });

  it("refuses a draft that splits a leaf that had jobs (edge: work would land on an inner node)", () => {
    const result = buildDemandScenarios(
      input([job({ id: "a", budgetId: "vis" })], {
        nodeId: "vis",
        draftChildren: [{ name: "vis-a", weight: 1 }],
      }),
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues[0]?.path).toBe("children");
  });

  it("refuses an empty period", () => {
    expect(buildDemandScenarios(input([], { toSec: FROM })).ok).toBe(false);
  });
});

describe("remainingWorkSec", () => {
  it("uses observed run time when the work is unknown, at least the minimum runtime", () => {
    const ran = job({
      id: "x",
      workSec: null,
      runs: [{ startedAtSec: FROM, endedAtSec: FROM + 5 * H }],
    });
    expect(remainingWorkSec(ran, -Infinity, TO)).toBe(5 * H);
    expect(remainingWorkSec(job({ id: "y", workSec: null }), -Infinity, TO)).toBe(H);
    expect(remainingWorkSec(job({ id: "z", workSec: null, minRuntimeSec: 0 }), -Infinity, TO)).toBe(
      60,
    );
  });

  it("keeps only a non-resumable job's current run as progress", () => {
    const nonResumable = job({
      id: "n",
      isResumable: false,
      submittedAtSec: FROM - 5 * H,
      runs: [
        { startedAtSec: FROM - 4 * H, endedAtSec: FROM - 3 * H },
        { startedAtSec: FROM - H, endedAtSec: null },
      ],
    });
    expect(remainingWorkSec(nonResumable, FROM, TO)).toBe(3 * H);
  });
});

describe("applyDraftForReplay", () => {
  it("renames and reweights, adds new children and keeps left-out ones at weight 0", () => {
    const tree = applyDraftForReplay(TREE, "lang", [
      { id: "pre", name: "pretrain", weight: 5 },
      { name: "agents", weight: 2 },
    ]);
    expect(tree.filter((node) => node.parentId === "lang")).toEqual([
      { id: "pre", parentId: "lang", name: "pretrain", weight: 5 },
      { id: "eval", parentId: "lang", name: "lm-eval", weight: 0 },
      { id: "draft-new-0", parentId: "lang", name: "agents", weight: 2 },
    ]);
    expect(TREE[2]).toEqual({ id: "pre", parentId: "lang", name: "lm-pretrain", weight: 2 });
  });
});

describe("listActualWaits", () => {
  it("counts jobs submitted in the period, up to its end when they never started", () => {
    const waits = listActualWaits(
      [
        job({ id: "a", submittedAtSec: FROM + H, firstStartedAtSec: FROM + 3 * H }),
        job({ id: "b", budgetId: "eval", submittedAtSec: TO - H, jobClass: "debug" }),
        job({ id: "c", submittedAtSec: FROM - H, firstStartedAtSec: FROM + H }),
      ],
      FROM,
      TO,
    );
    expect(waits).toEqual([
      { budgetId: "pre", jobClass: "training", waitSec: 2 * H },
      { budgetId: "eval", jobClass: "debug", waitSec: H },
    ]);
  });
});

describe("applyDraftForReplay on the tree of a past period", () => {
  it("adds a child the period's tree does not hold under its own id (edge: created later)", () => {
    const tree = [
      { id: "root", parentId: null, name: "lab", weight: 1 },
      { id: "a", parentId: "root", name: "a", weight: 1 },
    ];
    expect(
      applyDraftForReplay(tree, "root", [
        { id: "a", name: "a", weight: 2 },
        { id: "later", name: "later", weight: 1 },
      ]),
    ).toEqual([
      { id: "root", parentId: null, name: "lab", weight: 1 },
      { id: "a", parentId: "root", name: "a", weight: 2 },
      { id: "later", parentId: "root", name: "later", weight: 1 },
    ]);
  });
});
