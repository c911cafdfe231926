import type { FairTreeRanking } from "./fair-tree-ranking";
import type { StandingQueue } from "./standing-queue";
import { freeGpuBounds, mayPlaceWithin, type FreeGpuBounds } from "./placement";
import { isShortJob } from "./short-jobs";
import type { StandingRuns } from "./standing-runs";
import type { BudgetTree, ClusterNodeState, PendingJob } from "./types";

// The quiet-pass check of an `IncrementalScheduler` (ADR 018), internal to the engine.

/**
 * What a scheduling pass that decided nothing (no start, no preemption) leaves for the next: the
 * ranks it walked the queue on, the rank of its reservation's holder, and how many protections
 * had ended by then (ADR 018).
 */
export type QuietMark = {
  /** The ranking's ranks record, compared by identity: the ranker shares it while ranks hold. */
  rankByBudgetId: Readonly<Record<string, number>>;
  leafCount: number;
  /** `PassOutcome.reservationHolderRank`. */
  holderRank: number | null;
  /** The moment of that pass, and `StandingRuns.protectionEndsBy` then. */
  atSec: number;
  protectionEnds: number;
};

/** What a pass is about to be given, and what changed since the pass before, for `isStillQuiet`. */
export type QuietCheck = {
  nowSec: number;
  nodes: readonly ClusterNodeState[];
  /** Free GPUs per node index with the standing runs holding theirs (the caller's count). */
  freeGpus: readonly number[];
  /** Jobs queued since the pass before (or the last check). */
  newJobs: readonly PendingJob[];
  /** Whether a run started or ended since then. */
  hasRunsChanged: boolean;
  /** Whether every node is the same object as at the pass before (no health change). */
  isSameNodes: boolean;
  isDraining: boolean;
  ranking: FairTreeRanking;
  /** `StandingRuns.protectionEndsBy` now. */
  protectionEnds: number;
  runs: StandingRuns;
  queue: StandingQueue;
  tree: BudgetTree;
};

/**
 * Whether a pass now would decide nothing, shown without running it (ADR 018): the pass before
 * decided nothing, and since then only jobs arrived (or a wake-up came): no run started or ended,
 * no node changed, the ranks are the same record, and no protection ended that a queued job could
 * use (a run's protection matters only to jobs ranked before its budget, and to drains). That
 * pass's walk then meets every job it met on the same nodes, runs, ranks and reservation, and the
 * new jobs can only fail and narrow what later jobs are tried for, provided none of them could:
 * - start on free GPUs (the bounds of healthy nodes' free GPUs rule it out);
 * - start by preemption (free GPUs plus every GPU preemption could free for its rank fall short);
 * - take the reservation (an allocated job ranks strictly after the holder, and there is one);
 * - start in the short sweep (ADR 092): for a short job, preemption is bounded without the share
 *   guard, and the free GPUs counted include reserved nodes.
 *
 * False whenever any of this is not shown; the caller then runs the pass.
 *
 * @example if (isStillQuiet(mark, check)) return "quiet"
 */
export function isStillQuiet(mark: QuietMark | null, check: QuietCheck): boolean {
  const { ranking, nowSec } = check;
  if (
    mark === null ||
    !check.isSameNodes ||
    check.hasRunsChanged ||
    ranking.rankByBudgetId !== mark.rankByBudgetId ||
    ranking.leafCount !== mark.leafCount
  ) {
    return false;
  }
  const unknownRank = ranking.leafCount + 1;
  const rankOf = (budgetId: string): number => ranking.rankByBudgetId[budgetId] ?? unknownRank;
  if (check.protectionEnds !== mark.protectionEnds) {
    // A run no longer protected may be preempted by jobs ranked before its budget, and is
    // drained off a draining node. New allocated jobs rank after the holder (below), so after
    // every queued job when the old ones do.
    if (check.isDraining) return false;
    const bestRank = check.queue.bestRank(true, rankOf);
    for (const budgetId of check.runs.protectionsEndedIn(mark.atSec, nowSec)) {
      if (rankOf(budgetId) > bestRank) return false;
    }
  }
  if (check.newJobs.length === 0) return true;
  // As the standing runs counted them while runs came and went, else a look at every node.
  const bounds: FreeGpuBounds =
    check.runs.freeBounds(check.nodes) ?? freeGpuBounds(check.nodes, check.freeGpus);
  for (const job of check.newJobs) {
    if (mayPlaceWithin(bounds, job.gpus)) return false;
    if (!check.queue.isAllocated(job.id)) continue;
    const jobRank = rankOf(job.budgetId);
    if (mark.holderRank === null || jobRank <= mark.holderRank) return false;
    // The short sweep (ADR 092) waives the share guard for short jobs, and may use reserved
    // nodes: the free GPUs above count them, and so does the bound, unguarded.
    const isGuarded = !isShortJob(job, bounds.nodeSizeGpus);
    const preemptableGpus = check.runs.preemptableBound(
      check.tree,
      nowSec,
      job,
      jobRank,
      rankOf,
      isGuarded,
    );
    if (bounds.usableFreeGpus + preemptableGpus >= job.gpus) return false;
  }
  return true;
}
