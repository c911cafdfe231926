import type { FairTreeRanking } from "./fair-tree";
import type { PendingQueue } from "./pending-queue";
import type {
  DrainCompleteDecision,
  PreemptDecision,
  StartDecision,
  WaitDecision,
} from "./reasons";
import type { StandingRuns } from "./standing-runs";
import type { ActiveRun, BudgetTree, ClusterSpec, PendingJob, UsageMode } from "./types";

// What a scheduling pass takes and gives (`runSchedulePass`, `runReferencePass`).

/**
 * Everything one scheduling pass of one cluster needs: the usage to rank the tree on, or a
 * ranking already made. Nothing here is mutated.
 */
export type SchedulePassInput = SchedulePassCommon &
  (
    | {
        /** Allocated GPU-seconds per leaf in the window at `nowSec` (see `computeLeafUsage`). */
        leafUsage: Record<string, number>;
        /** A ranking already computed from the same usage; computed here when absent. */
        ranking?: FairTreeRanking;
      }
    | { leafUsage?: undefined; ranking: FairTreeRanking }
  );

/** The fields of `SchedulePassInput` besides usage and ranking. */
type SchedulePassCommon = {
  cluster: ClusterSpec;
  /** The moment of the pass, in the caller's epoch seconds. */
  nowSec: number;
  tree: BudgetTree;
  /** Runs holding GPUs: a list, or runs the caller keeps between passes (`createStandingRuns`). */
  runs: readonly ActiveRun[] | StandingRuns;
  /**
   * The waiting jobs: a list, or a queue the caller keeps between passes (`createStandingQueue`),
   * which spares the pass screening and sorting the whole queue.
   */
  pending: readonly PendingJob[] | PendingQueue;
  /** How `leafUsage` was counted, for usage ratios; default a window of `cluster.lookbackSec`. */
  usageMode?: UsageMode;
  /**
   * Whether to write every waiting job's reason (default true). The simulator, which never shows
   * them, passes false: `waiting` then holds only the jobs that can never start.
   */
  describeWaits?: boolean;
};

/** The decisions of one pass. Every pending job is in exactly one of `starts` or `waiting`. */
export type SchedulePassResult = {
  atSec: number;
  ranking: FairTreeRanking;
  /** In queue order. */
  starts: StartDecision[];
  /** Node-down and drain preemptions first, then those made for starts, in order. */
  preemptions: PreemptDecision[];
  /** In queue order (error jobs first); only the error jobs when `describeWaits` is false. */
  waiting: WaitDecision[];
  /** Jobs left waiting that may start later (errors excluded), by kind. */
  waitingCounts: { allocated: number; unallocated: number };
  /**
   * The rank of the job holding the reservation when the allocated jobs were last walked (the
   * first that could not start and that the healthy nodes could hold), or null if none did.
   */
  reservationHolderRank: number | null;
  /** Draining nodes left without runs: ready for maintenance. */
  drainsCompleted: DrainCompleteDecision[];
};
