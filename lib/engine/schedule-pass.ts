import { loadClusterState, type ClusterState } from "./cluster-state";
import { createBudgetRefs } from "./budget-refs";
import { rankBudgets } from "./fair-tree";
import type { FairTreeRanking } from "./fair-tree-ranking";
import { createPassScratch } from "./pass-scratch";
import { startUnallocatedJobs } from "./pass-unallocated";
import { createPassState, reservedNodes, startJob } from "./pass-state";
import { sweepShortJobs } from "./pass-short";
import { sweepAllocatedQueue } from "./pass-sweep";
import type {
  FastPassInput,
  PassOutcome,
  SchedulePassInput,
  SchedulePassResult,
} from "./pass-types";
import { describeWaitingJobs } from "./pass-waits";
import { queueFromPending, type RankOf } from "./pending-queue";
import type { BudgetRef, WaitDecision } from "./reasons";
import { forgetWholeNodeScan } from "./node-readiness";
import type { Reservation } from "./reservation";
import { MAX_SHORT_ROUNDS } from "./short-jobs";
import { usageWindowSec } from "./usage-window";

export type { SchedulePassInput, SchedulePassResult } from "./pass-types";

/**
 * One scheduling pass of one cluster at `nowSec` (docs/contract.md, ADR 010): kills runs on
 * down nodes, preempts unprotected runs on draining nodes, then walks the queue (allocated jobs
 * by rank, priority within a budget, submit time, id; unallocated jobs after) and starts what
 * fits, preempting unallocated runs and unprotected runs of lower-ranked budgets only when that
 * lets the job start at once. The first allocated job that cannot start gets a reservation of
 * the nodes where it can start soonest; later allocated jobs may not use them, except to backfill
 * with a protection that ends before those nodes are ready. Short jobs left waiting (at most 15
 * minutes protected, 8 GPUs, one node) then get one more try in queue order, the share guard
 * waived and the reserved nodes open to them unless due within 15 minutes (ADR 092).
 * Unallocated jobs then take any GPUs still free. Every pending job gets a start or a reason to
 * wait.
 *
 * Pure and deterministic: the same input gives the same output; inputs are not mutated. A caller
 * that sees runs and jobs change by small deltas from pass to pass (the simulator) keeps them in
 * an `IncrementalScheduler` instead, which decides the same faster.
 * Throws only on broken invariants (runs overfilling a node, unknown node indices).
 *
 * @example
 * const result = runSchedulePass({ cluster, nowSec: 3600, tree, leafUsage: {}, runs: [], pending });
 * result.starts.map((start) => start.jobId);
 */
export function runSchedulePass(input: SchedulePassInput): SchedulePassResult {
  const ranking = rankingOf(input);
  const queue = queueFromPending(input.pending, input.tree, input.cluster);
  const scratch = createPassScratch();
  return runFastPass({ ...input, ranking, rankOf: rankLookup(ranking), queue, scratch }).result;
}

/**
 * The ranking a pass on `input` uses: the one given, else the tree ranked on `leafUsage` over
 * the cluster's GPUs and the usage window.
 *
 * @example rankingOf({ cluster, nowSec, tree, leafUsage: {}, runs: [], pending: [] }).leafCount
 */
export function rankingOf(input: SchedulePassInput): FairTreeRanking {
  const { cluster } = input;
  return (
    input.ranking ??
    rankBudgets(input.tree, input.leafUsage!, {
      capacityGpus: cluster.nodes.reduce((sum, node) => sum + node.gpus, 0),
      windowSec: input.usageMode ? usageWindowSec(input.usageMode) : cluster.lookbackSec,
    })
  );
}

/**
 * A budget's rank in `ranking`: budgets it does not rank come after every leaf.
 *
 * @example rankLookup(ranking)("unknown") // ranking.leafCount + 1
 */
export function rankLookup(ranking: FairTreeRanking): RankOf {
  const ranks = ranking.rankByBudgetId;
  const unknownRank = ranking.leafCount + 1;
  return (budgetId: string): number => ranks[budgetId] ?? unknownRank;
}

/**
 * `runSchedulePass` on runs and jobs as given (internal to the engine): lists, or the standing
 * runs and queue an `IncrementalScheduler` keeps. Standing runs are left as the pass found them.
 *
 * @example runFastPass({ ...input, ranking, rankOf, runs: standing.state, queue }).result
 */
export function runFastPass(input: FastPassInput): PassOutcome {
  const { ranking } = input;
  const budgetRef = createBudgetRefs(input.tree, ranking);
  const state = loadClusterState(input, input.rankOf, budgetRef);
  try {
    return decide(input, ranking, input.rankOf, budgetRef, state);
  } finally {
    state.finish();
    forgetWholeNodeScan(input.scratch.reservation);
  }
}

/**
 * The decisions of a pass on the loaded cluster state (see `runSchedulePass`), phase by phase
 * on one `PassState`: short jobs first (`sweepShortJobs`), the allocated queue in order (place,
 * preempt, reserve, backfill: `sweepAllocatedQueue`), then short jobs once more, then
 * unallocated work, then the reasons of the jobs left waiting.
 */
function decide(
  input: FastPassInput,
  ranking: FairTreeRanking,
  rankOf: RankOf,
  budgetRef: (budgetId: string) => BudgetRef,
  loaded: ClusterState,
): PassOutcome {
  const { nowSec, queue } = input;
  const pass = createPassState(input, ranking, rankOf, budgetRef, loaded);
  // Jobs that can never start as submitted, then the queue, read only as far as needed.
  const waiting: WaitDecision[] = [...queue.errors];

  // Wait reasons name the reservation as the last allocated sweep left it: its nodes are chosen
  // before the short sweep after it or unallocated work take any GPUs.
  let heldReservation: Reservation | null = null;
  // Short jobs go first (ADR 098): a job protected for at most 15 minutes delays better-ranked
  // work by no more, and they may then preempt it.
  sweepShortJobs(pass, queue, true);
  for (let round = 1; ; round += 1) {
    sweepAllocatedQueue(pass, queue);
    heldReservation = input.describeWaits === false ? null : reservedNodes(pass);
    // Short jobs left waiting get one more try, with rules of their own (ADR 092); GPUs freed
    // beyond one's own have the queue swept again.
    if (!sweepShortJobs(pass, queue, false) || round === MAX_SHORT_ROUNDS) break;
  }
  // Unallocated work takes only GPUs no allocated job could start on in this pass.
  startUnallocatedJobs(queue, rankOf, pass.pool, pass.bounds, (job, placement) =>
    startJob(pass, job, false, placement, []),
  );
  if (input.describeWaits !== false) {
    describeWaitingJobs(pass, queue, heldReservation, waiting);
  }
  const result: SchedulePassResult = {
    atSec: nowSec,
    ranking,
    starts: pass.starts,
    preemptions: loaded.preemptions,
    waiting,
    waitingCounts: {
      allocated: queue.allocatedCount - pass.startedAllocated,
      unallocated: queue.unallocatedCount - pass.startedUnallocated,
    },
    drainsCompleted: loaded.drainsCompleted,
  };
  return { result, reservationHolderRank: pass.reservation?.holderRank ?? null };
}
