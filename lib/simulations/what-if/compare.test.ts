import { describe, expect, it } from "vitest";
import type { BudgetNode } from "../../engine/types";
import type { BudgetSummary } from "../../sim/report-types";
import { compareOutcomes, outcomeFromReport, type LeafOutcome, type Outcome } from "./compare";
import { applyDraftForReplay } from "./demand-scenario";

const TREE: BudgetNode[] = [
  { id: "root", parentId: null, name: "lab", weight: 1 },
  { id: "lang", parentId: "root", name: "language", weight: 1 },
  { id: "pre", parentId: "lang", name: "lm-pretrain", weight: 3 },
  { id: "post", parentId: "lang", name: "lm-posttrain", weight: 1 },
  { id: "riley", parentId: "post", name: "riley", weight: 1 },
  { id: "kira", parentId: "post", name: "kira", weight: 1 },
  { id: "eval", parentId: "lang", name: "lm-eval", weight: 1 },
];

function leaf(entitled: number, received: number, fulfilment: number | null): LeafOutcome {
  return {
    effectiveShare: 0.1,
    entitledGpuHours: entitled,
    receivedGpuHours: received,
    allocatedGpuHours: received,
    unallocatedGpuHours: 0,
    fulfilment,
  };
}

function outcome(leaves: Record<string, LeafOutcome>, waits: Outcome["waits"] = []): Outcome {
  return { nodes: new Map(Object.entries(leaves)), waits };
}

describe("compareOutcomes", () => {
  const draftTree = applyDraftForReplay(TREE, "lang", [
    { id: "pre", name: "pretrain", weight: 1 },
    { id: "post", name: "lm-posttrain", weight: 1 },
    { name: "agents", weight: 2 },
  ]);
  const rows = compareOutcomes({
    tree: TREE,
    draftTree,
    nodeId: "lang",
    happened: null,
    current: outcome({ pre: leaf(100, 90, 0.9), riley: leaf(50, 50, 1), eval: leaf(0, 5, null) }, [
      { budgetId: "pre", jobClass: "training", waitSec: 100 },
      { budgetId: "pre", jobClass: "training", waitSec: 300 },
      { budgetId: "riley", jobClass: "debug", waitSec: 10 },
      { budgetId: "vis", jobClass: "debug", waitSec: 9999 },
    ]),
    draft: outcome({ pre: leaf(40, 40, 1), riley: leaf(60, 30, 0.5) }),
  });

  it("puts the branch total first, then every budget at every level in tree order", () => {
    expect(
      rows.map((row) => [
        row.label,
        row.depth,
        row.isLeaf,
        row.isNew,
        row.isLeftOut,
        row.draftLabel,
      ]),
    ).toEqual([
      ["language", 0, false, false, false, null],
      ["lm-pretrain", 1, true, false, false, "pretrain"],
      ["lm-posttrain", 1, false, false, false, null],
      ["lm-posttrain/riley", 2, true, false, false, null],
      ["lm-posttrain/kira", 2, true, false, false, null],
      ["lm-eval", 1, true, false, true, null],
      ["agents", 1, true, true, false, null],
    ]);
  });

  it("sums a branch row from its leaves, fulfilment over its funded leaves (computeFulfilment)", () => {
    const project = rows.find((row) => row.id === "post")!;
    // riley 50 of 50, kira nothing: 50 entitled, all received.
    expect(project.current).toMatchObject({
      entitledGpuHours: 50,
      receivedGpuHours: 50,
      fulfilment: 1,
    });
    // Draft: riley 30 of 60.
    expect(project.draft).toMatchObject({
      entitledGpuHours: 60,
      receivedGpuHours: 30,
      fulfilment: 0.5,
    });
  });

  it("weighs hour-by-hour fulfilment by entitlement, where the period figure says 100% twice", () => {
    const hourly = (entitled: number, fulfilment: number, hourlyFulfilment: number) => ({
      ...leaf(entitled, entitled * fulfilment, fulfilment),
      hourlyFulfilment,
    });
    const [total] = compareOutcomes({
      tree: TREE,
      draftTree: TREE,
      nodeId: "lang",
      happened: null,
      current: outcome({ pre: hourly(100, 1, 0.8), riley: hourly(50, 1, 0.5) }),
      draft: outcome({
        pre: hourly(100, 1, 0.9),
        riley: hourly(50, 1, 0.9),
        eval: leaf(0, 5, null),
      }),
    });
    expect(total!.current).toMatchObject({ fulfilment: 1, hourlyFulfilment: (80 + 25) / 150 });
    expect(total!.draft).toMatchObject({ fulfilment: 1, hourlyFulfilment: 0.9 });
    // A what-if stored before the figure was kept: no hour-by-hour figure, not 0%.
    expect(rows[0]!.current!.hourlyFulfilment).toBeNull();
  });

  it("sums hours and weighs fulfilment by entitlement; waits pool the branch's jobs only", () => {
    const total = rows[0]!;
    expect(total.current).toMatchObject({
      entitledGpuHours: 150,
      receivedGpuHours: 145,
      fulfilment: 140 / 150,
    });
    expect(total.draft).toMatchObject({ entitledGpuHours: 100, fulfilment: 0.7 });
    expect(total.current!.waits).toEqual({
      debug: { jobs: 1, p50Sec: 10, p90Sec: 10 },
      training: { jobs: 2, p50Sec: 100, p90Sec: 300 },
    });
    expect(total.happened).toBeNull();
  });

  it("shows a budget without entitlement as fulfilment null (edge: received but never owed)", () => {
    expect(rows[5]!.current).toMatchObject({ receivedGpuHours: 5, fulfilment: null });
    expect(rows[6]!.current).toMatchObject({ effectiveShare: 0, receivedGpuHours: 0 });
  });

  it("leaves the control column out when the current split was not replayed (edge: no control)", () => {
    const happened = outcome({ pre: leaf(80, 60, 0.75), riley: leaf(20, 20, 1) });
    const draft = outcome({ pre: leaf(40, 40, 1), riley: leaf(60, 30, 0.5) });
    const alone = compareOutcomes({
      tree: TREE,
      draftTree,
      nodeId: "lang",
      happened,
      current: null,
      draft,
    });
    expect(alone.map((row) => row.current)).toEqual([null, null, null, null, null, null, null]);
    expect(alone[0]!.happened).toMatchObject({ entitledGpuHours: 100, fulfilment: 0.8 });
    expect(alone[0]!.draft).toEqual(rows[0]!.draft);
  });
});

describe("outcomeFromReport", () => {
  it("keys a report's budgets by leaf id, the last part of the path of ids", () => {
    const budget: BudgetSummary = {
      path: "lang/post/riley",
      effectiveShare: 0.05,
      entitledGpuHours: 10,
      receivedGpuHours: 12,
      allocatedGpuHours: 9,
      unallocatedGpuHours: 3,
      fulfilment: 0.9,
      hourlyFulfilment: 0.85,
      preemptions: 2,
      workConservingGpuHours: 11,
      workConservingFulfilment: 0.95,
    };
    expect([...outcomeFromReport([budget], []).nodes.entries()]).toEqual([
      [
        "riley",
        {
          effectiveShare: 0.05,
          entitledGpuHours: 10,
          receivedGpuHours: 12,
          allocatedGpuHours: 9,
          unallocatedGpuHours: 3,
          fulfilment: 0.9,
          hourlyFulfilment: 0.85,
        },
      ],
    ]);
  });
});

describe("compareOutcomes at the lab level", () => {
  const lab: BudgetNode[] = [
    ...TREE,
    { id: "vis", parentId: "root", name: "vision", weight: 1 },
    { id: "video", parentId: "vis", name: "video-gen", weight: 1 },
  ];
  // As the review reports them: every node, inner ones with their own (leaf-summed) figures.
  const happened: Outcome = {
    nodes: new Map(
      Object.entries({
        root: leaf(200, 150, 0.7),
        lang: leaf(120, 100, 0.75),
        pre: leaf(100, 90, 0.9),
        post: leaf(20, 10, 0.5),
        riley: leaf(20, 10, 0.5),
        vis: leaf(80, 50, 0.625),
        video: leaf(80, 50, 0.625),
      }),
    ),
    waits: [],
    hasBranches: true,
  };
  const rows = compareOutcomes({
    tree: lab,
    draftTree: applyDraftForReplay(lab, "root", [
      { id: "lang", name: "language", weight: 3 },
      { id: "vis", name: "vision", weight: 1 },
    ]),
    nodeId: "root",
    happened,
    current: null,
    draft: outcome({ pre: leaf(150, 140, 0.9333), riley: leaf(30, 30, 1), video: leaf(50, 50, 1) }),
  });

  it("lists each program before its projects and leaves, programs in tree order", () => {
    expect(rows.map((row) => `${"  ".repeat(row.depth)}${row.label}`)).toEqual([
      "lab",
      "  language",
      "    language/lm-pretrain",
      "    language/lm-posttrain",
      "      language/lm-posttrain/riley",
      "      language/lm-posttrain/kira",
      "    language/lm-eval",
      "  vision",
      "    vision/video-gen",
    ]);
  });

  it("takes what happened from the review's own row of each budget, branches included", () => {
    expect(rows.map((row) => row.happened?.entitledGpuHours)).toEqual([
      200, 120, 100, 20, 20, 0, 0, 80, 80,
    ]);
    expect(rows[1]!.happened!.fulfilment).toBe(0.75);
  });

  it("sums a replay's program from its leaves (edge: one leaf over, one under its due)", () => {
    // pre 140 of 150, riley 30 of 30: (140 + 30) / 180.
    expect(rows[1]!.draft).toMatchObject({
      entitledGpuHours: 180,
      receivedGpuHours: 170,
      fulfilment: 170 / 180,
    });
    expect(rows[0]!.draft).toMatchObject({ entitledGpuHours: 230, receivedGpuHours: 220 });
  });
});
