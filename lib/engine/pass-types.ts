import type { FairTreeRanking } from "./fair-tree-ranking";
import type { PassScratch } from "./pass-scratch";
import type { PendingQueue, RankOf } from "./pending-queue";
import type {
  DrainCompleteDecision,
  PreemptDecision,
  StartDecision,
  WaitDecision,
} from "./reasons";
import type { StandingRunsState } from "./standing-runs";
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
  /** Runs holding GPUs. */
  runs: readonly ActiveRun[];
  /** The waiting jobs. */
  pending: readonly PendingJob[];
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
  /** Draining nodes left without runs: ready for maintenance. */
  drainsCompleted: DrainCompleteDecision[];
};

/**
 * A pass as the fast path runs it (internal to the engine): ranked, with runs as a list or as the
 * standing runs an `IncrementalScheduler` keeps, and jobs as a queue (a list's, or a standing one).
 */
export type FastPassInput = Omit<SchedulePassCommon, "runs" | "pending"> & {
  ranking: FairTreeRanking;
  /** The ranks of `ranking` as a lookup; the same function while the ranks hold (see `walk`). */
  rankOf: RankOf;
  runs: readonly ActiveRun[] | StandingRunsState;
  queue: PendingQueue;
  /** Working memory to reuse: the scheduler's own, or one for this pass. */
  scratch: PassScratch;
};

/** A pass's result and what the quiet-pass check reads of it (internal; both passes give it). */
export type PassOutcome = {
  result: SchedulePassResult;
  /**
   * The rank of the job holding the reservation when the allocated jobs were last walked (the
   * first that could not start and that the healthy nodes could hold), or null if none did.
   */
  reservationHolderRank: number | null;
};
