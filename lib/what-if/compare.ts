// Side by side per budget of a lead's branch: what happened in the period, its replay under the
// current split and under the draft (DESIGN section 5 figures). Pure: outcomes in, rows out.
import type { BudgetNode } from "../engine/types";
import { percentile } from "../sim/hourly";
import type { BudgetSummary } from "../sim/report-types";
import type { PeriodReport } from "../reports/period-report";

/** One leaf's hours over the period (DESIGN section 5). */
export type LeafOutcome = {
  effectiveShare: number;
  entitledGpuHours: number;
  receivedGpuHours: number;
  allocatedGpuHours: number;
  unallocatedGpuHours: number;
  /** null when nothing was entitled. */
  fulfilment: number | null;
};

/** One job's queue wait: first start minus submit, seconds (a job that never started: to the end). */
export type JobWait = { budgetId: string; jobClass: string; waitSec: number };

/** A period's outcome: hours by leaf id, and the waits of the jobs submitted in the period. */
export type Outcome = { leaves: ReadonlyMap<string, LeafOutcome>; waits: readonly JobWait[] };

export type WaitFigures = { jobs: number; p50Sec: number; p90Sec: number };

/** The figures of one row in one column. */
export type Figures = LeafOutcome & { waits: Record<string, WaitFigures> };

export type WhatIfRow = {
  /** Leaf id, or the branch's id for the total row. */
  id: string;
  /** Names below the branch ("lm-pretrain/alice"); the branch's own name for the total. */
  label: string;
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
  const leaves = new Map<string, LeafOutcome>();
  for (const budget of budgets) {
    const id = budget.path.slice(budget.path.lastIndexOf("/") + 1);
    leaves.set(id, {
      effectiveShare: budget.effectiveShare,
      entitledGpuHours: budget.entitledGpuHours,
      receivedGpuHours: budget.receivedGpuHours,
      allocatedGpuHours: budget.allocatedGpuHours,
      unallocatedGpuHours: budget.unallocatedGpuHours,
      fulfilment: budget.fulfilment,
    });
  }
  return { leaves, waits };
}

/** The roll-ups' review of the period (lib/reports) as an outcome: its leaves. */
export function outcomeFromPeriodReport(report: PeriodReport, waits: readonly JobWait[]): Outcome {
  const leaves = new Map<string, LeafOutcome>();
  for (const node of report.nodes) {
    if (!node.isLeaf) continue;
    leaves.set(node.id, {
      effectiveShare: node.effectiveShare,
      entitledGpuHours: node.entitledGpuHours,
      receivedGpuHours: node.receivedGpuHours,
      allocatedGpuHours: node.receivedAllocatedGpuHours,
      unallocatedGpuHours: node.receivedUnallocatedGpuHours,
      fulfilment: node.fulfilment,
    });
  }
  return { leaves, waits };
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

/** Leaves below `nodeId` (or the node itself when it is a leaf), depth first, with their names below it. */
function leavesBelow(
  tree: readonly BudgetNode[],
  nodeId: string,
): { id: string; names: string[] }[] {
  const childrenOf = childrenIndex(tree);
  const out: { id: string; names: string[] }[] = [];
  const walk = (id: string, names: string[]) => {
    const children = childrenOf.get(id) ?? [];
    if (children.length === 0) out.push({ id, names });
    for (const child of children) walk(child.id, [...names, child.name]);
  };
  walk(nodeId, []);
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

/** Sums leaves: hours add up, shares add up, fulfilment is weighted by entitlement. */
function figuresOf(outcome: Outcome, ids: readonly string[]): Figures {
  let fulfilled = 0;
  const sum = { ...NONE };
  for (const id of ids) {
    const leaf = outcome.leaves.get(id) ?? NONE;
    sum.effectiveShare += leaf.effectiveShare;
    sum.entitledGpuHours += leaf.entitledGpuHours;
    sum.receivedGpuHours += leaf.receivedGpuHours;
    sum.allocatedGpuHours += leaf.allocatedGpuHours;
    sum.unallocatedGpuHours += leaf.unallocatedGpuHours;
    fulfilled += (leaf.fulfilment ?? 0) * leaf.entitledGpuHours;
  }
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    effectiveShare: Math.round(sum.effectiveShare * 1e6) / 1e6,
    entitledGpuHours: round(sum.entitledGpuHours),
    receivedGpuHours: round(sum.receivedGpuHours),
    allocatedGpuHours: round(sum.allocatedGpuHours),
    unallocatedGpuHours: round(sum.unallocatedGpuHours),
    fulfilment:
      sum.entitledGpuHours > 0 ? Math.round((fulfilled / sum.entitledGpuHours) * 1e4) / 1e4 : null,
    waits: waitFigures(outcome.waits, new Set(ids)),
  };
}

/**
 * One row per leaf of the branch below `nodeId` (as the draft shapes it: added budgets
 * included, left-out ones kept) and a total row first, each with the three columns.
 * `happened` is null when no roll-ups cover the period, `current` when the control was not run.
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
  const liveIds = new Set(input.tree.map((node) => node.id));
  const liveLeaves = new Map(leavesBelow(input.tree, nodeId).map((leaf) => [leaf.id, leaf.names]));
  const draftLeaves = leavesBelow(input.draftTree, nodeId);
  const draftNode = new Map(input.draftTree.map((node) => [node.id, node]));
  const leftOut = new Set(
    input.draftTree
      .filter((node) => node.parentId === nodeId && node.weight === 0 && liveIds.has(node.id))
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
  const allIds = draftLeaves.map((leaf) => leaf.id);
  const total: WhatIfRow = {
    id: nodeId,
    label: name,
    isTotal: true,
    isNew: false,
    isLeftOut: false,
    draftLabel: null,
    happened: input.happened ? figuresOf(input.happened, allIds) : null,
    current: input.current ? figuresOf(input.current, allIds) : null,
    draft: figuresOf(input.draft, allIds),
  };
  const rows = draftLeaves.map((leaf): WhatIfRow => {
    const liveNames = liveLeaves.get(leaf.id);
    const draftLabel = leaf.names.join("/");
    const label = liveNames ? liveNames.join("/") || name : draftLabel;
    return {
      id: leaf.id,
      label,
      isTotal: false,
      isNew: !liveIds.has(leaf.id),
      isLeftOut: isBelowLeftOut(leaf.id),
      draftLabel: liveNames && draftLabel !== label ? draftLabel : null,
      happened: input.happened ? figuresOf(input.happened, [leaf.id]) : null,
      current: input.current ? figuresOf(input.current, [leaf.id]) : null,
      draft: figuresOf(input.draft, [leaf.id]),
    };
  });
  return [total, ...rows];
}
