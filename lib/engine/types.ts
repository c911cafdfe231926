/**
 * Shared shapes of the scheduling engine. Plain, JSON-safe objects: the engine
 * never mutates its arguments and never reads a clock; time is `nowSec`, seconds
 * on whatever epoch the caller uses (the simulator uses seconds from scenario
 * start, the live service Unix seconds).
 */

/** Health of one cluster node (DESIGN section 2). */
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
  nodes: ClusterNodeState[];
  /** Sliding usage window W, default 7 days. */
  lookbackSec: number;
  /** The largest minimum runtime a job may declare, default 8 h. */
  maxMinRuntimeSec: number;
};

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
