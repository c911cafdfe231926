import type { ActiveRun, BudgetNode, ClusterSpec, NodeSlice, PendingJob } from "../engine/types";
import type { Scenario, SimCluster } from "./scenario";

/**
 * What a scheduler sees at one moment on one cluster. Arrays are the simulator's own: a
 * scheduler must not mutate them.
 */
export type SchedulerView = {
  nowSec: number;
  /**
   * `nodes` is frozen, nodes too, and the simulator gives a new array whenever a node changes:
   * the same array means the same nodes.
   */
  cluster: ClusterSpec;
  tree: readonly BudgetNode[];
  /** Waiting jobs in the order they (re)joined the queue. */
  pending: readonly PendingJob[];
  /**
   * Jobs that joined (or rejoined) the queue since the previous pass, for policies that keep
   * their own queue; a pending job leaves the queue only when a plan starts it.
   */
  newlyPending: readonly PendingJob[];
  running: readonly ActiveRun[];
  /** Runs that started since the previous pass, in start order (those since ended included). */
  runsStarted: readonly ActiveRun[];
  /** Runs that ended since the previous pass (completed, preempted, node down). */
  runsEnded: readonly ActiveRun[];
  /** Free GPUs per node index (healthy or not). */
  freeGpus: readonly number[];
  /** Free GPUs on healthy nodes, summed. */
  usableFreeGpus: number;
  /** Allocated GPU-seconds per leaf id within the lookback window; absent means 0. */
  usageByLeaf: Readonly<Record<string, number>>;
  /** One leaf's entry of `usageByLeaf` (0 when absent), without building the whole record. */
  usageOf(leafId: string): number;
  /**
   * `usageOf` the leaf named at each index of `leafIds`, written to the same index of `into`
   * (indices without a name are left alone). Pass the same array every time: a policy reading
   * the same leaves at every pass has them looked up once.
   */
  usagesOf(leafIds: readonly (string | null)[], into: Float64Array): void;
};

/** Start a pending job on these GPUs. `reason` is kept in the report as given. */
export type StartDecision = {
  jobId: string;
  placement: NodeSlice[];
  isAllocated: boolean;
  /** Whether the run gets its protected period (default: `isAllocated`); the baseline has none. */
  isProtected?: boolean;
  reason?: unknown;
};

/** Preempt a running run; the simulator requeues it if its job is resumable. */
export type PreemptDecision = { runId: string; reason?: unknown };

/** A scheduler's answer: preemptions are applied first, then starts. */
export type SchedulerPlan = {
  starts: StartDecision[];
  preemptions: PreemptDecision[];
  /**
   * When to ask again even if nothing happens (e.g. ranks shift as usage accrues), in seconds;
   * null for "only after the next event".
   */
  wakeAtSec: number | null;
};

/** A scheduling policy behind one interface: a third policy is one more file. */
export type Scheduler = {
  /** `allocation`, `baseline`, ... as the report names it. */
  name: string;
  plan(view: SchedulerView): SchedulerPlan;
};

/** Makes a scheduler for one cluster of a scenario (a policy may read its own scenario fields). */
export type SchedulerFactory = (scenario: Scenario, cluster: SimCluster) => Scheduler;
