import type { PreemptionOutcome } from "./contract";
import type { Issue, NodeSlice } from "./types";

/**
 * A budget as a decision saw it: its leaf rank on the cluster (1 = most under-served) and its
 * usage ratio (usage / owed over the window; null when it is owed nothing).
 */
export type BudgetRef = {
  id: string;
  /** Names below the root joined by "/"; the id when the budget is not in the tree. */
  path: string;
  rank: number | null;
  usageRatio: number | null;
};

/** One side of the comparison that decided between two budgets: a node and its usage ratio. */
export type PartingSide = { path: string; usageRatio: number | null };

/**
 * Where two budgets' paths part in the tree: the two sibling nodes Fair Tree compared to order
 * them (their leaves themselves when they are siblings). See `findParting`.
 */
export type Parting = { higher: PartingSide; lower: PartingSide };

/**
 * The budget a decision was weighed against and where the two budgets' paths part: the other
 * side of the comparison that decided (docs/ranking.md).
 */
export type Comparison = { budget: BudgetRef; parting: Parting | null };

/**
 * The job a reservation is kept for, and when its nodes should be ready: null when that is not
 * known (a short job's start, ADR 092, or a backfill protected for at most 2 h, ADR 097).
 */
/** How a job larger than a node is placed (ADR 010): whole nodes, and the rest on one more. */
export type NodeLayout = { wholeNodes: number; remainderGpus: number };

export type KeptFor = { jobId: string; budget: BudgetRef; readyAtSec: number | null };

/**
 * A start of the pass's short sweep (ADR 092): a short job (at most 15 minutes protected, eight
 * GPUs, one node) tried again after the queue, which may use nodes kept for another job
 * (`keptFor`) and preempts without the share guard.
 */
export type ShortStart = {
  /** Whether it preempted an allocated run that the share guard (ADR 011) would have kept. */
  isShareGuardWaived: boolean;
  /**
   * Whether it started in the short sweep before the ranked queue (ADR 098), ahead of better-
   * ranked jobs that are not short. Absent from reasons recorded before it was.
   */
  isBeforeQueue?: boolean;
};

/** Why a job started. Times are the caller's epoch seconds (`nowSec` of the pass). */
export type StartReason =
  | {
      rule: "start-allocated";
      atSec: number;
      budget: BudgetRef;
      gpus: number;
      nodes: number[];
      minRuntimeSec: number;
      protectedUntilSec: number;
      /** Runs preempted in this pass to make room (empty when it fit in free GPUs). */
      preemptedRunIds: string[];
      budgetsAbove: number;
      /**
       * Set when it backfills GPUs kept for a better-placed job, or a short job uses a node kept
       * for another: its protection ends by then (or, when no ready time is known, it is
       * protected for at most 2 h, ADR 097).
       */
      keptFor: KeptFor | null;
      /**
       * The budget of the first allocated run it preempted, which it outranks; null when it
       * preempted none (or only unallocated work). Absent from reasons recorded before it was.
       */
      outranked?: Comparison | null;
      /** Set when it started in the short sweep; absent otherwise. */
      short?: ShortStart;
    }
  | {
      rule: "start-unallocated";
      atSec: number;
      budget: BudgetRef;
      gpus: number;
      nodes: number[];
      /** Why it is unallocated: minimum runtime 0, or a budget with no share. */
      cause: "zero-min-runtime" | "zero-share";
    }
  | {
      /**
       * Not Allot's decision: the job already ran on the executor when Allot first saw it (SLURM:
       * it ran before the bridge did), and Allot took its run on as if it had started it.
       */
      rule: "start-adopted";
      /** When it started on the executor. */
      atSec: number;
      /** When Allot learnt of it. */
      adoptedAtSec: number;
      budget: BudgetRef;
      gpus: number;
      nodes: number[];
      isAllocated: boolean;
      /** Its start + its minimum runtime when allocated; its start otherwise. */
      protectedUntilSec: number;
    };

/** Why a run was preempted (docs/contract.md). */
export type PreemptReason =
  | {
      /** An allocated job of a better-ranked budget needed the GPUs of this unprotected run. */
      rule: "preempt-for-rank";
      atSec: number;
      victim: BudgetRef;
      victimStartSec: number;
      protectedUntilSec: number;
      preemptor: { jobId: string; budget: BudgetRef; gpus: number };
      /** The comparison that decided: where the preemptor's and the victim's paths part. */
      parting: Parting | null;
      outcome: PreemptionOutcome;
    }
  | {
      /** An allocated job needed the GPUs of this unallocated (free, unprotected) run. */
      rule: "preempt-unallocated";
      atSec: number;
      victim: BudgetRef;
      victimStartSec: number;
      preemptor: { jobId: string; budget: BudgetRef; gpus: number };
      outcome: PreemptionOutcome;
    }
  | {
      /** The run is on a draining node and no longer protected. */
      rule: "preempt-drain";
      atSec: number;
      victim: BudgetRef;
      victimStartSec: number;
      protectedUntilSec: number;
      node: number;
      outcome: PreemptionOutcome;
    }
  | {
      /** A node under the run went down: everything on it ends, protected or not. */
      rule: "preempt-node-down";
      atSec: number;
      victim: BudgetRef;
      victimStartSec: number;
      node: number;
      outcome: PreemptionOutcome;
    };

/** Why a job is still pending after the pass. `error-*` rules never start. */
export type WaitReason =
  | { rule: "error-invalid-job"; issues: Issue[] }
  | {
      rule: "error-larger-than-cluster";
      needGpus: number;
      clusterGpus: number;
      nodeSizeGpus: number;
    }
  | {
      /** Not enough usable GPUs even after every preemption this job may make. */
      rule: "wait-resources";
      atSec: number;
      budget: BudgetRef;
      needGpus: number;
      isWholeNodes: boolean;
      /** A job larger than a node: its layout. Absent for a one-node job and from older reasons. */
      layout?: NodeLayout;
      /** Free GPUs on healthy nodes now (reserved ones included). */
      freeGpus: number;
      freeWholeNodes: number;
      /** GPUs of protected runs of lower-ranked budgets, preemptable once unprotected. */
      protectedGpus: number;
      /** When, counting GPUs only, enough become preemptable; null if never by protection ends. */
      readyAtSec: number | null;
      /** GPUs held by runs of budgets ranked at or above this one (never preempted for it). */
      heldByHigherGpus: number;
      /** Of those, the GPUs of this job's own budget. Absent from older reasons. */
      heldByOwnGpus?: number;
      /**
       * GPUs of unprotected runs of lower-ranked budgets that the share guard keeps: taking them
       * would leave this budget holding more per unit of share than theirs (ADR 011).
       */
      heldWithinShareGpus: number;
      /** GPUs on draining or down nodes. */
      unusableGpus: number;
      /**
       * GPUs it may preempt now: unallocated work and unprotected runs of lower-ranked budgets,
       * less those the share guard keeps and those kept for short jobs. With the other counts,
       * every GPU of the cluster once. Absent from older reasons.
       */
      preemptableGpus?: number;
      budgetsAbove: number;
      /** Nodes kept for this job (it is the first job that cannot start); empty otherwise. */
      reservedNodes: number[];
      /**
       * Nodes the pass keeps for another job, ahead of this one, which this job may not use
       * (EASY backfill aside), when enough GPUs are free or preemptable by count and those nodes
       * hold some this job could take: then they are part of why it waits. Absent otherwise,
       * for the holder itself, and from older reasons.
       */
      keptForOther?: { nodes: number[]; readyAtSec: number | null };
      /**
       * The budget ranked above this one that holds the most of those `heldByHigherGpus` (its
       * GPUs there), its own budget aside; null when none does. Absent from older reasons.
       */
      heldMostBy?: (Comparison & { gpus: number }) | null;
      /**
       * For a job that is not short: the node whose unprotected runs are kept for short
       * jobs (ADR 098) and the GPUs of those it could otherwise preempt (lower-ranked, not kept
       * by the share guard). Absent when there are none, and from older reasons.
       */
      keptForShort?: { node: number; gpus: number };
    }
  | {
      /** It would fit, but on GPUs kept for a better-placed job that cannot start yet. */
      rule: "wait-reservation";
      atSec: number;
      budget: BudgetRef;
      needGpus: number;
      isWholeNodes: boolean;
      /** A job larger than a node: its layout. Absent for a one-node job and from older reasons. */
      layout?: NodeLayout;
      holder: { jobId: string; budget: BudgetRef; gpus: number };
      /** Why the holder ranks ahead: where its budget's and this job's budget's paths part. */
      parting: Parting | null;
      reservedNodes: number[];
      /**
       * When the kept nodes should be ready; jobs whose protection ends by then may backfill
       * (null: unknown, and jobs protected for at most 2 h may, ADR 097).
       */
      readyAtSec: number | null;
      budgetsAbove: number;
    }
  | {
      /** Unallocated work only takes GPUs no allocated job can use; none fit now. */
      rule: "wait-unallocated";
      atSec: number;
      budget: BudgetRef;
      needGpus: number;
      isWholeNodes: boolean;
      /** A job larger than a node: its layout. Absent for a one-node job and from older reasons. */
      layout?: NodeLayout;
      freeGpus: number;
      freeWholeNodes: number;
      /** The most free GPUs on one healthy node. Absent from older reasons. */
      mostFreeOnOneNode?: number;
      cause: "zero-min-runtime" | "zero-share";
    };

/** The machine-readable reason of any decision; `explainReason` turns it into a sentence. */
export type Reason = StartReason | PreemptReason | WaitReason | DrainCompleteReason;

/** A draining node with no run left: ready for maintenance without a human. */
export type DrainCompleteReason = { rule: "drain-complete"; atSec: number; node: number };

/** Start `jobId` now on `placement`. */
export type StartDecision = {
  jobId: string;
  budgetId: string;
  gpus: number;
  placement: NodeSlice[];
  isAllocated: boolean;
  /** startSec + minRuntimeSec when allocated, else the start itself. */
  protectedUntilSec: number;
  reason: StartReason;
};

/** End run `runId` now; `outcome` says whether its job is requeued or ends `preempted`. */
export type PreemptDecision = {
  runId: string;
  jobId: string;
  budgetId: string;
  gpus: number;
  outcome: PreemptionOutcome;
  reason: PreemptReason;
};

/** A job that stays pending, and why. `isError`: it can never start as submitted. */
export type WaitDecision = {
  jobId: string;
  budgetId: string;
  isError: boolean;
  reason: WaitReason;
};

/** A draining node that is empty: an automated remediation (count once per draining spell). */
export type DrainCompleteDecision = { node: number; reason: DrainCompleteReason };

/**
 * For a one-node job waiting as unallocated work: whether free GPUs would hold it but no healthy
 * node has that many free (then the most on one node is worth saying).
 *
 * @example isFreeSplitAcrossNodes({ needGpus: 8, isWholeNodes: false, freeGpus: 13, mostFreeOnOneNode: 7, ... }) // true
 */
export function isFreeSplitAcrossNodes(
  reason: Extract<WaitReason, { rule: "wait-unallocated" }>,
): boolean {
  const most = reason.mostFreeOnOneNode;
  return (
    !reason.isWholeNodes &&
    most !== undefined &&
    most < reason.needGpus &&
    reason.freeGpus >= reason.needGpus
  );
}
