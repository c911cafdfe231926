/**
 * Shared shapes of the scheduling engine. Plain, JSON-safe objects: the engine
 * never mutates its arguments and never reads a clock; time is `nowSec`, seconds
 * on whatever epoch the caller uses (the simulator uses seconds from scenario
 * start, the live service Unix seconds).
 */

/** Health of one cluster node (docs/concepts.md). */
export type NodeHealth = "healthy" | "draining" | "down";

/** Orders jobs only within the same budget. */
export type Priority = "low" | "normal" | "high";

/** Reports tag jobs by class; `debug` is min runtime <= 15 min and <= 8 GPUs. */
export type JobClass = "debug" | "training" | "interactive" | (string & {});

/** One node of the budget tree, flat form. Exactly one node has `parentId: null`. */
export type BudgetNode = {
  id: string;
  parentId: string | null;
  name: string;
  /** Non-negative, finite. */
  weight: number;
};

/** A cluster as the engine sees it at one moment. */
export type ClusterSpec = {
  name: string;
  nodes: readonly ClusterNodeState[];
  /** Sliding usage window W, default 7 days. */
  lookbackSec: number;
  /** The largest minimum runtime a job may declare, default 8 h. */
  maxMinRuntimeSec: number;
};

/** One node of a cluster: its GPUs and health. */
export type ClusterNodeState = {
  /** 0-based index within the cluster; placements refer to it. */
  index: number;
  gpus: number;
  health: NodeHealth;
};

/** GPUs taken on one node by one run. */
export type NodeSlice = { node: number; gpus: number };

/** A job waiting to run (a requeued resumable job is pending again). */
export type PendingJob = {
  id: string;
  /** Leaf budget id. */
  budgetId: string;
  userId: string;
  gpus: number;
  /** The scheduling contract: 0 means free, unprotected, uncharged time. */
  minRuntimeSec: number;
  isResumable: boolean;
  priority: Priority;
  submitSec: number;
};

/** A run in progress on the cluster. */
export type ActiveRun = {
  id: string;
  jobId: string;
  budgetId: string;
  userId: string;
  gpus: number;
  placement: NodeSlice[];
  startSec: number;
  isAllocated: boolean;
  /** startSec + minRuntimeSec for allocated runs; startSec for unallocated ones. */
  protectedUntilSec: number;
  isResumable: boolean;
  priority: Priority;
};

/** A finished or running run as far as usage accounting needs it. */
export type UsageRun = {
  budgetId: string;
  gpus: number;
  startSec: number;
  /** null while running: counted up to now. */
  endSec: number | null;
  isAllocated: boolean;
};

/** One problem found in an input: `code` is stable and machine-readable. */
export type Issue = {
  code: string;
  message: string;
  /** The offending tree node, job or run, when there is one. */
  id?: string;
};

/** Expected failures are values, not exceptions (HOUSE-STYLE section 4). */
export type Result<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** One node of a validated budget tree, with its derived shares. */
export type BudgetTreeNode = BudgetNode & {
  /** Names below the root joined by "/"; "" for the root (docs/simulator.md budget paths). */
  path: string;
  /** 0 for the root. */
  depth: number;
  /** Position of the parent in `BudgetTree.nodes`; -1 for the root. */
  parentIndex: number;
  /** Positions of the children in `BudgetTree.nodes`, in input order. */
  childIndices: number[];
  isLeaf: boolean;
  /** weight / sum of sibling weights (own included); 0 when all siblings weigh 0; 1 for the root. */
  fraction: number;
  /** Product of fractions from the root down, in [0, 1]. */
  effectiveShare: number;
};

/** A validated budget tree: nodes in depth-first preorder (children in input order). */
export type BudgetTree = {
  rootId: string;
  nodes: BudgetTreeNode[];
  /** Position of each id in `nodes`; a null-prototype record. */
  indexById: Record<string, number>;
  leafCount: number;
};

/** How usage is aggregated over time (docs/ranking.md; decay is SLURM's and Kueue's habit). */
export type UsageMode =
  { kind: "window"; lookbackSec: number } | { kind: "decay"; halfLifeSec: number };
