import { loadClusterState, type ClusterState } from "./cluster-state";
import { createBudgetRefs, rankBudgets, type FairTreeRanking } from "./fair-tree";
import { startUnallocatedJobs } from "./pass-unallocated";
import { createPassState, reservedNodes, startJob } from "./pass-state";
import { sweepShortJobs } from "./pass-short";
import { sweepAllocatedQueue } from "./pass-sweep";
import type { SchedulePassInput, SchedulePassResult } from "./pass-types";
import { describeWaitingJobs } from "./pass-waits";
import { isPendingQueue, queueFromPending, type RankOf } from "./pending-queue";
import type { BudgetRef, WaitDecision } from "./reasons";
import { forgetWholeNodeScan, type Reservation } from "./reservation";
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
 * Pure and deterministic: the same input gives the same output; inputs are not mutated (a
 * standing queue or standing runs is left as the pass found it).
 * Throws only on broken invariants (runs overfilling a node, unknown node indices).
 *
 * @example
 * const result = runSchedulePass({ cluster, nowSec: 3600, tree, leafUsage: {}, runs: [], pending });
 * result.starts.map((start) => start.jobId);
 */
export function runSchedulePass(input: SchedulePassInput): SchedulePassResult {
  const { cluster, tree } = input;
  const ranking =
    input.ranking ??
    rankBudgets(tree, input.leafUsage!, {
      capacityGpus: cluster.nodes.reduce((sum, node) => sum + node.gpus, 0),
      windowSec: input.usageMode ? usageWindowSec(input.usageMode) : cluster.lookbackSec,
    });
  const rankOf = rankLookup(ranking);
  const budgetRef = createBudgetRefs(tree, ranking);

  const state = loadClusterState(input, rankOf, budgetRef);
  try {
    return decide(input, ranking, rankOf, budgetRef, state);
  } finally {
    state.finish();
    forgetWholeNodeScan();
  }
}

/** Rank lookups by the ranks they read: see `rankLookup`. */
const rankLookups = new WeakMap<
  Readonly<Record<string, number>>,
  { leafCount: number; rankOf: RankOf }
>();

/**
 * A budget's rank in `ranking` (budgets it does not rank come after every leaf). The same
 * function for rankings that share their ranks (the ranker shares them while the leaves' ranks
 * and order stay the same), so a standing queue can keep its order of budgets (`walk`).
 */
function rankLookup(ranking: FairTreeRanking): RankOf {
  const ranks = ranking.rankByBudgetId;
  const kept = rankLookups.get(ranks);
  if (kept?.leafCount === ranking.leafCount) return kept.rankOf;
  const unknownRank = ranking.leafCount + 1;
  const rankOf = (budgetId: string): number => ranks[budgetId] ?? unknownRank;
  rankLookups.set(ranks, { leafCount: ranking.leafCount, rankOf });
  return rankOf;
}

/**
 * The decisions of a pass on the loaded cluster state (see `runSchedulePass`), phase by phase
 * on one `PassState`: the allocated queue in order (place, preempt, reserve, backfill:
 * `sweepAllocatedQueue`), then short jobs once more (`sweepShortJobs`), then unallocated work,
 * then the reasons of the jobs left waiting.
 */
function decide(
  input: SchedulePassInput,
  ranking: FairTreeRanking,
  rankOf: RankOf,
  budgetRef: (budgetId: string) => BudgetRef,
  loaded: ClusterState,
): SchedulePassResult {
  const { cluster, nowSec, tree } = input;
  const pass = createPassState(input, ranking, rankOf, budgetRef, loaded);
  // Jobs that can never start as submitted, then the queue, read only as far as needed.
  const queue = isPendingQueue(input.pending)
    ? input.pending
    : queueFromPending(input.pending, tree, cluster);
  const waiting: WaitDecision[] = [...queue.errors];

  // Wait reasons name the reservation as the last allocated sweep left it: its nodes are chosen
  // before short jobs or unallocated work take any GPUs.
  let heldReservation: Reservation | null = null;
  for (let round = 1; ; round += 1) {
    sweepAllocatedQueue(pass, queue);
    heldReservation = input.describeWaits === false ? null : reservedNodes(pass);
    // Short jobs left waiting get one more try, with rules of their own (ADR 092); GPUs freed
    // beyond one's own have the queue swept again.
    if (!sweepShortJobs(pass, queue) || round === MAX_SHORT_ROUNDS) break;
  }
  // Unallocated work takes only GPUs no allocated job could start on in this pass.
  startUnallocatedJobs(queue, rankOf, pass.pool, pass.bounds, (job, placement) =>
    startJob(pass, job, false, placement, []),
  );
  if (input.describeWaits !== false) {
    describeWaitingJobs(pass, queue, heldReservation, waiting);
  }
  return {
    atSec: nowSec,
    ranking,
    starts: pass.starts,
    preemptions: loaded.preemptions,
    waiting,
    waitingCounts: {
      allocated: queue.allocatedCount - pass.startedAllocated,
      unallocated: queue.unallocatedCount - pass.startedUnallocated,
    },
    reservationHolderRank: pass.reservation?.holderRank ?? null,
    drainsCompleted: loaded.drainsCompleted,
  };
}
