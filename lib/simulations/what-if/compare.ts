// Side by side per budget of a lead's branch: what happened in the period, its replay under the
// current split and under the draft (docs/fulfilment.md figures). Pure: outcomes in, rows out.
import { computeFulfilment } from "../../engine/entitlement";
import type { BudgetNode } from "../../engine/types";
import { percentile } from "../../sim/hourly";
import type { BudgetSummary } from "../../sim/report-types";
import type { PeriodReport } from "../../reports/period-report";

/** One leaf's hours over the period (docs/fulfilment.md). */
export type LeafOutcome = {
  /** What happened: the share in force over the period (its mean over the hours); a replay: its split's. */
  effectiveShare: number;
  entitledGpuHours: number;
  receivedGpuHours: number;
  allocatedGpuHours: number;
  unallocatedGpuHours: number;
  /** null when nothing was entitled. */
  fulfilment: number | null;
  /**
   * The stricter hour-by-hour figure (docs/fulfilment.md): GPU-hours beyond one hour's
   * entitlement make up for no other hour. Below 100% where the period figure is capped at it.
   * Absent from what-ifs stored before it was kept.
   */
  hourlyFulfilment?: number | null;
};

/** One job's queue wait: first start minus submit, seconds (a job that never started: to the end). */
export type JobWait = { budgetId: string; jobClass: string; waitSec: number };

/**
 * A period's outcome: hours by budget id, and the waits of the jobs submitted in the period.
 * `nodes` holds leaves; with `hasBranches` it also holds inner nodes whose figures are taken as
 * they are (the review's rows), instead of being summed from their leaves.
 */
export type Outcome = {
  nodes: ReadonlyMap<string, LeafOutcome>;
  waits: readonly JobWait[];
  hasBranches?: boolean;
};

export type WaitFigures = { jobs: number; p50Sec: number; p90Sec: number };

/** The figures of one row in one column. */
export type Figures = LeafOutcome & { waits: Record<string, WaitFigures> };

export type WhatIfRow = {
  /** The budget's id (the branch's own id for the total row). */
  id: string;
  /** Names below the branch ("lm-pretrain/alice"); the branch's own name for the total. */
  label: string;
  /** The budget's own name, as it stood in the period (or the draft's, for an added one). */
  name: string;
  parentId: string | null;
  /** 0 for the branch (total), 1 for the children the draft changes, and so on down. */
  depth: number;
  isLeaf: boolean;
  isTotal: boolean;
  /** Added by the draft (no demand in the period). */
  isNew: boolean;
  /** Left out of the draft: replayed with weight 0. */
  isLeftOut: boolean;
  /** The draft's name when it renames the budget or one above it in the branch. */
  draftLabel: string | null;
  happened: Figures | null;
  /** The replay under the current split (the control); null when it was not asked for. */
  current: Figures | null;
  draft: Figures;
};

const NONE: LeafOutcome = {
  effectiveShare: 0,
  entitledGpuHours: 0,
  receivedGpuHours: 0,
  allocatedGpuHours: 0,
  unallocatedGpuHours: 0,
  fulfilment: null,
  hourlyFulfilment: null,
};

/**
 * A simulation report's budgets as an outcome. Scenario paths of a what-if are node ids joined
 * by "/", so a leaf's id is the last part of its path.
 *
 * @example outcomeFromReport(report.budgets, waits).leaves.get("leafId")?.receivedGpuHours
 */
export function outcomeFromReport(
  budgets: readonly BudgetSummary[],
  waits: readonly JobWait[],
): Outcome {
  const nodes = new Map<string, LeafOutcome>();
  for (const budget of budgets) {
    const id = budget.path.slice(budget.path.lastIndexOf("/") + 1);
    nodes.set(id, {
      effectiveShare: budget.effectiveShare,
      entitledGpuHours: budget.entitledGpuHours,
      receivedGpuHours: budget.receivedGpuHours,
      allocatedGpuHours: budget.allocatedGpuHours,
      unallocatedGpuHours: budget.unallocatedGpuHours,
      fulfilment: budget.fulfilment,
      hourlyFulfilment: budget.hourlyFulfilment,
    });
  }
  return { nodes, waits };
}

/**
 * The roll-ups' review of the period (lib/reports, the Review page's report) as an outcome:
 * every node, inner ones included, so a row's figures are the review's row as it is.
 */
export function outcomeFromPeriodReport(report: PeriodReport, waits: readonly JobWait[]): Outcome {
  const nodes = new Map<string, LeafOutcome>();
  for (const node of report.nodes) {
    nodes.set(node.id, {
      effectiveShare: node.effectiveShare,
      entitledGpuHours: node.entitledGpuHours,
      receivedGpuHours: node.receivedGpuHours,
      allocatedGpuHours: node.receivedAllocatedGpuHours,
      unallocatedGpuHours: node.receivedUnallocatedGpuHours,
      fulfilment: node.fulfilment,
      hourlyFulfilment: node.hourlyFulfilment,
    });
  }
  return { nodes, waits, hasBranches: true };
}

function childrenIndex(tree: readonly BudgetNode[]): Map<string | null, BudgetNode[]> {
  const childrenOf = new Map<string | null, BudgetNode[]>();
  for (const node of tree) {
    const list = childrenOf.get(node.parentId) ?? [];
    list.push(node);
    childrenOf.set(node.parentId, list);
  }
  return childrenOf;
}

type Place = {
  node: BudgetNode;
  /** Names below the branch, as the draft shapes it. */
  names: string[];
  depth: number;
  /** Leaves at or below it (itself when it is one). */
  leafIds: string[];
};

/** The branch below `nodeId` (itself first), depth first in the tree's order: parents before children. */
function walkBranch(tree: readonly BudgetNode[], nodeId: string): Place[] {
  const childrenOf = childrenIndex(tree);
  const root = tree.find((node) => node.id === nodeId);
  if (!root) return [];
  const out: Place[] = [];
  const walk = (node: BudgetNode, names: string[], depth: number): string[] => {
    const place: Place = { node, names, depth, leafIds: [] };
    out.push(place);
    const children = childrenOf.get(node.id) ?? [];
    if (children.length === 0) place.leafIds.push(node.id);
    for (const child of children) {
      place.leafIds.push(...walk(child, [...names, child.name], depth + 1));
    }
    return place.leafIds;
  };
  walk(root, [], 0);
  return out;
}

function waitFigures(
  waits: readonly JobWait[],
  ids: ReadonlySet<string>,
): Record<string, WaitFigures> {
  const byClass = new Map<string, number[]>();
  for (const wait of waits) {
    if (!ids.has(wait.budgetId)) continue;
    const list = byClass.get(wait.jobClass) ?? [];
    list.push(wait.waitSec);
    byClass.set(wait.jobClass, list);
  }
  const out: Record<string, WaitFigures> = {};
  for (const jobClass of [...byClass.keys()].sort()) {
    const list = byClass.get(jobClass)!;
    out[jobClass] = {
      jobs: list.length,
      p50Sec: Math.round(percentile(list, 0.5)),
      p90Sec: Math.round(percentile(list, 0.9)),
    };
  }
  return out;
}

/**
 * Leaves' hour-by-hour fulfilment together: each leaf's hourly-capped GPU-hours (its figure
 * times its entitlement) over their entitlement; null when nothing was entitled.
 */
function hourlyFulfilmentOf(leaves: readonly LeafOutcome[]): number | null {
  let entitled = 0;
  let fulfilled = 0;
  for (const leaf of leaves) {
    if (leaf.hourlyFulfilment === null || leaf.hourlyFulfilment === undefined) continue;
    entitled += leaf.entitledGpuHours;
    fulfilled += leaf.hourlyFulfilment * leaf.entitledGpuHours;
  }
  return entitled > 0 ? fulfilled / entitled : null;
}

/**
 * One row's figures: the node's own when the outcome has it as a branch (the review's row),
 * else its leaves summed, hours and shares adding up, fulfilment by computeFulfilment over them
 * (docs/fulfilment.md).
 */
function figuresOf(outcome: Outcome, id: string, leafIds: readonly string[]): Figures {
  const own = outcome.hasBranches ? outcome.nodes.get(id) : undefined;
  const leaves = own ? [own] : leafIds.map((leafId) => outcome.nodes.get(leafId) ?? NONE);
  const sum = { ...NONE };
  for (const leaf of leaves) {
    sum.effectiveShare += leaf.effectiveShare;
    sum.entitledGpuHours += leaf.entitledGpuHours;
    sum.receivedGpuHours += leaf.receivedGpuHours;
    sum.allocatedGpuHours += leaf.allocatedGpuHours;
    sum.unallocatedGpuHours += leaf.unallocatedGpuHours;
  }
  // Unrounded: the page rounds once, as the review does, so both show the same whole hours.
  return {
    ...sum,
    fulfilment: own ? own.fulfilment : computeFulfilment(leaves),
    hourlyFulfilment: own ? (own.hourlyFulfilment ?? null) : hourlyFulfilmentOf(leaves),
    waits: waitFigures(outcome.waits, new Set(leafIds)),
  };
}

/**
 * One row per budget of the branch below `nodeId`, at every level, as the draft shapes it
 * (added budgets included, left-out ones kept): the branch's total first, then each child the
 * draft changes followed by its projects and leaves, in the tree's order. `tree` is the tree
 * the period is read with (the one in force then), `draftTree` the same with the draft applied.
 * A "what happened" row is the review's row of that budget when the outcome has branches, so
 * both show the same hours; a replay's branch row sums its leaves. `happened` is null when no
 * roll-ups cover the period, `current` when the control was not run.
 *
 * @example compareOutcomes({ tree, draftTree, nodeId, happened, current, draft })[0].isTotal // true
 */
export function compareOutcomes(input: {
  tree: readonly BudgetNode[];
  draftTree: readonly BudgetNode[];
  nodeId: string;
  happened: Outcome | null;
  current: Outcome | null;
  draft: Outcome;
}): WhatIfRow[] {
  const { nodeId } = input;
  const periodIds = new Set(input.tree.map((node) => node.id));
  const periodNames = new Map(
    walkBranch(input.tree, nodeId).map((place) => [place.node.id, place.names]),
  );
  const draftNode = new Map(input.draftTree.map((node) => [node.id, node]));
  const leftOut = new Set(
    input.draftTree
      .filter((node) => node.parentId === nodeId && node.weight === 0 && periodIds.has(node.id))
      .map((node) => node.id),
  );
  const isBelowLeftOut = (id: string): boolean => {
    for (
      let at = draftNode.get(id);
      at && at.id !== nodeId;
      at = draftNode.get(at.parentId ?? "")
    ) {
      if (leftOut.has(at.id)) return true;
    }
    return false;
  };
  const name = input.tree.find((node) => node.id === nodeId)?.name ?? nodeId;
  return walkBranch(input.draftTree, nodeId).map(({ node, names, depth, leafIds }): WhatIfRow => {
    const isTotal = depth === 0;
    const periodNamesOf = periodNames.get(node.id);
    const draftLabel = names.join("/");
    const label = isTotal ? name : periodNamesOf ? periodNamesOf.join("/") : draftLabel;
    return {
      id: node.id,
      label,
      name: isTotal ? name : (periodNamesOf?.at(-1) ?? node.name),
      parentId: isTotal ? null : node.parentId,
      depth,
      isLeaf: leafIds.length === 1 && leafIds[0] === node.id,
      isTotal,
      isNew: !periodIds.has(node.id),
      isLeftOut: !isTotal && isBelowLeftOut(node.id),
      draftLabel: !isTotal && periodNamesOf && draftLabel !== label ? draftLabel : null,
      happened: input.happened ? figuresOf(input.happened, node.id, leafIds) : null,
      current: input.current ? figuresOf(input.current, node.id, leafIds) : null,
      draft: figuresOf(input.draft, node.id, leafIds),
    };
  });
}
