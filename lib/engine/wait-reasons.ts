import { placeJob, type GpuPool, type PlacementShape } from "./placement";
import type { BudgetRef, Comparison, Parting, WaitDecision, WaitReason } from "./reasons";
import type { LiveRun } from "./live-run";
import type { Holdings } from "./holdings";
import { holdsOn, reserveKeptFrom } from "./short-reserve";
import type { PendingJob } from "./types";
import { countFree, groupUnprotectedRuns, type FreeCounts, type RunGroup } from "./wait-counts";
import { createRankViews, type RankViews } from "./wait-rank-views";

/** The end state of a pass, from which waiting jobs' reasons are read. */
export type WaitContext = {
  nowSec: number;
  pool: GpuPool;
  live: readonly LiveRun[];
  reservation: {
    holderId: string;
    holderBudgetId: string;
    holderGpus: number;
    isExcluded: Uint8Array;
    nodes: number[];
    readyAtSec: number | null;
  } | null;
  rankOf: (budgetId: string) => number;
  budgetRef: (budgetId: string) => BudgetRef;
  /** Where two budgets' paths part (`findParting`), for a sentence that names it. */
  partingOf: (higherBudgetId: string, lowerBudgetId: string) => Parting | null;
  shapeOf: (gpus: number) => PlacementShape;
  /** Allocated GPUs held per tree node at the end of the pass (the share guard). */
  holdings: Holdings;
  /** The position kept for short jobs in the pass (ADR 098), or -1. */
  shortReserveAt: number;
};

/** What every waiting job's reason reads, computed once per pass (see `describeWaiting`). */
type WaitFacts = FreeCounts & {
  context: WaitContext;
  viewOf: RankViews;
  runGroups: Map<string, RunGroup>;
  /** Per size: whether free GPUs could hold it, reservation or not. */
  fitsWithoutReservation: Map<number, boolean>;
  /** Per budget: the other budget ranked at or above holding the most GPUs, if any. */
  heldMostByBudget: Map<string, (Comparison & { gpus: number }) | null>;
  /** Unprotected allocated runs on the node kept for short jobs (ADR 098), read once. */
  keptForShortRuns: LiveRun[];
  /** What the nodes kept for the holder hold, read the first time a reason needs it. */
  onReserved: ReservedHoldings | null;
};

/** Free GPUs on the nodes kept for the reservation's holder, and the runs there. */
type ReservedHoldings = { freeGpus: number; runs: LiveRun[] };

/**
 * Builds the reason for every job still pending after a pass (internal to the pass). Cluster
 * aggregates are computed once and rank views incrementally, so thousands of waiting jobs cost
 * little more than a lookup each.
 *
 * @example const describe = describeWaiting(context); describe(job, true).reason.rule
 */
export function describeWaiting(
  context: WaitContext,
): (job: PendingJob, isAllocated: boolean) => WaitDecision {
  const { pool, live, reservation } = context;
  const facts: WaitFacts = {
    context,
    ...countFree(pool),
    viewOf: createRankViews(live, pool),
    runGroups: groupUnprotectedRuns(live, pool),
    fitsWithoutReservation: new Map(),
    keptForShortRuns: live.filter(
      (entry) =>
        !entry.isGone &&
        entry.isAllocated &&
        !entry.isProtectedNow &&
        holdsOn(entry, context.shortReserveAt),
    ),
    heldMostByBudget: new Map(),
    onReserved: null,
  };
  // Jobs of one budget, size and kind wait for the same reason: share one (immutable) object.
  const shared = new Map<string, Map<number, WaitReason>>();
  return (job, isAllocated) => {
    const isHolder = reservation?.holderId === job.id;
    const isKeptFromReserve =
      isAllocated && reserveKeptFrom(job, pool.nodeSizeGpus, context.shortReserveAt) >= 0;
    const kind = isAllocated ? (isKeptFromReserve ? 3 : 0) : job.minRuntimeSec > 0 ? 1 : 2;
    let byKey = shared.get(job.budgetId);
    if (!byKey) {
      byKey = new Map();
      shared.set(job.budgetId, byKey);
    }
    const key = job.gpus * 4 + kind;
    let reason = isHolder ? undefined : byKey.get(key);
    if (!reason) {
      reason = buildReason(facts, job, isAllocated, isHolder, isKeptFromReserve);
      if (!isHolder) byKey.set(key, reason);
    }
    return { jobId: job.id, budgetId: job.budgetId, isError: false, reason };
  };
}

/** Free GPUs and runs on the usable nodes kept for the reservation's holder (none: empty). */
function readReservedNodes(context: WaitContext): ReservedHoldings {
  const { pool, live, reservation } = context;
  if (!reservation) return { freeGpus: 0, runs: [] };
  const isKept = (position: number) =>
    reservation.isExcluded[position] === 1 && pool.isUsable[position] === 1;
  let freeGpus = 0;
  for (let position = 0; position < pool.free.length; position += 1) {
    if (isKept(position)) freeGpus += pool.free[position]!;
  }
  const runs = live.filter(
    (entry) => !entry.isGone && entry.slices.some((slice) => isKept(slice.position)),
  );
  return { freeGpus, runs };
}

/**
 * Whether the nodes kept for another job hold GPUs a job of `rank` could take now: free ones,
 * or runs it may preempt (unallocated work, unprotected runs of budgets ranked below; the share
 * guard aside). Only then do they explain why it waits.
 */
function isServedByReservedNodes(facts: WaitFacts, rank: number): boolean {
  facts.onReserved ??= readReservedNodes(facts.context);
  if (facts.onReserved.freeGpus > 0) return true;
  return facts.onReserved.runs.some(
    (entry) => !entry.isAllocated || (!entry.isProtectedNow && entry.rank > rank),
  );
}

/** GPUs of unprotected lower-ranked runs `job` may not take: the share guard keeps them. */
function shieldedGpusFor(facts: WaitFacts, job: PendingJob, rank: number): number {
  let gpus = 0;
  for (const group of facts.runGroups.values()) {
    if (group.rank <= rank) continue;
    if (facts.context.holdings.mayPreempt(job.budgetId, group.budgetId, job.gpus, group.gpus)) {
      continue;
    }
    gpus += group.usableGpus;
  }
  return gpus;
}

/**
 * GPUs of the runs on the node kept for short jobs (ADR 098) that `job` could otherwise preempt:
 * unprotected, of budgets ranked below, and not kept by the share guard (those it counts apart).
 */
function keptForShortGpus(facts: WaitFacts, job: PendingJob, rank: number): number {
  const { pool, holdings } = facts.context;
  let gpus = 0;
  for (const entry of facts.keptForShortRuns) {
    if (entry.rank <= rank) continue;
    if (!holdings.mayPreempt(job.budgetId, entry.budgetId, job.gpus, entry.gpus)) continue;
    for (const slice of entry.slices) if (pool.isUsable[slice.position]) gpus += slice.gpus;
  }
  return gpus;
}

/**
 * When `needGpus` could be free for a job seeing `view`: now if free and preemptable GPUs
 * (less those the share guard keeps and those kept for short jobs) cover it, else when enough
 * protected GPUs ranked below are free; null if they never cover it.
 */
function readyAtSecFor(
  facts: WaitFacts,
  view: ReturnType<RankViews>,
  needGpus: number,
  keptGpus: number,
): number | null {
  const deficit = needGpus - facts.freeGpus - (view.preemptableGpus - keptGpus);
  return deficit <= 0 ? facts.context.nowSec : view.endCovering(deficit);
}

/** The reason one job waits: unallocated, kept off the reservation, or short of resources. */
function buildReason(
  facts: WaitFacts,
  job: PendingJob,
  isAllocated: boolean,
  isHolder: boolean,
  isKeptFromReserve: boolean,
): WaitReason {
  const { context, freeGpus, freeWholeNodes } = facts;
  const { nowSec, reservation } = context;
  const { wholeNodes, remainderGpus } = context.shapeOf(job.gpus);
  const isWholeNodes = wholeNodes > 0;
  const layout = isWholeNodes ? { layout: { wholeNodes, remainderGpus } } : {};
  const budget = context.budgetRef(job.budgetId);
  const rank = context.rankOf(job.budgetId);
  if (!isAllocated) {
    return {
      rule: "wait-unallocated",
      atSec: nowSec,
      budget,
      needGpus: job.gpus,
      isWholeNodes,
      ...layout,
      freeGpus,
      freeWholeNodes,
      mostFreeOnOneNode: facts.mostFreeOnOneNode,
      cause: job.minRuntimeSec > 0 ? "zero-share" : "zero-min-runtime",
    };
  }
  if (reservation && !isHolder) {
    let fits = facts.fitsWithoutReservation.get(job.gpus);
    if (fits === undefined) {
      fits = placeJob(context.pool, job.gpus) !== null;
      facts.fitsWithoutReservation.set(job.gpus, fits);
    }
    if (fits) {
      return {
        rule: "wait-reservation",
        atSec: nowSec,
        budget,
        needGpus: job.gpus,
        isWholeNodes,
        ...layout,
        holder: {
          jobId: reservation.holderId,
          budget: context.budgetRef(reservation.holderBudgetId),
          gpus: reservation.holderGpus,
        },
        parting: context.partingOf(reservation.holderBudgetId, job.budgetId),
        reservedNodes: reservation.nodes,
        readyAtSec: reservation.readyAtSec,
        budgetsAbove: rank - 1,
      };
    }
  }
  const view = facts.viewOf(rank);
  const heldWithinShareGpus = shieldedGpusFor(facts, job, rank);
  const keptGpus = isKeptFromReserve ? keptForShortGpus(facts, job, rank) : 0;
  // The same for every job of the budget (it depends on its rank only): built once.
  let heldMostBy = facts.heldMostByBudget.get(job.budgetId);
  if (heldMostBy === undefined) {
    const holder = view.topHolder(job.budgetId);
    heldMostBy = holder && {
      budget: context.budgetRef(holder.budgetId),
      gpus: holder.gpus,
      parting: context.partingOf(holder.budgetId, job.budgetId),
    };
    facts.heldMostByBudget.set(job.budgetId, heldMostBy);
  }
  const readyAtSec =
    isHolder && reservation
      ? reservation.readyAtSec
      : readyAtSecFor(facts, view, job.gpus, heldWithinShareGpus + keptGpus);
  // Enough GPUs by count, yet no placement: the nodes kept for another job may be why.
  const isKeptOut =
    reservation !== null &&
    !isHolder &&
    readyAtSec === nowSec &&
    isServedByReservedNodes(facts, rank);
  return {
    rule: "wait-resources",
    atSec: nowSec,
    budget,
    needGpus: job.gpus,
    isWholeNodes,
    ...layout,
    freeGpus,
    freeWholeNodes,
    protectedGpus: view.protectedGpus,
    readyAtSec,
    heldByHigherGpus: view.heldByHigherGpus,
    heldByOwnGpus: view.ownGpus(job.budgetId),
    heldWithinShareGpus,
    unusableGpus: facts.unusableGpus,
    preemptableGpus: view.preemptableGpus - heldWithinShareGpus - keptGpus,
    budgetsAbove: rank - 1,
    reservedNodes: isHolder && reservation ? reservation.nodes : [],
    ...(isKeptOut
      ? { keptForOther: { nodes: reservation.nodes, readyAtSec: reservation.readyAtSec } }
      : {}),
    heldMostBy,
    ...(keptGpus > 0
      ? { keptForShort: { node: context.pool.indexOf[context.shortReserveAt]!, gpus: keptGpus } }
      : {}),
  };
}
