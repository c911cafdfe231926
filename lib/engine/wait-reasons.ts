import { placeJob, type GpuPool, type PlacementShape } from "./placement";
import type { BudgetRef, Comparison, Parting, WaitDecision, WaitReason } from "./reasons";
import type { LiveRun } from "./live-run";
import type { Holdings } from "./holdings";
import { holdsOn, reserveKeptFrom } from "./short-reserve";
import type { PendingJob } from "./types";

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

/** An allocated run as the rank views read it (`slot`: its place among protection ends). */
type ViewedRun = {
  budgetSlot: number;
  rank: number;
  gpus: number;
  isProtected: boolean;
  untilSec: number;
  slot: number;
};

/** The runs' GPUs on usable nodes: unallocated in all, and each allocated run with its budget. */
function collectRuns(live: readonly LiveRun[], pool: GpuPool) {
  const usable = (entry: LiveRun): number =>
    entry.slices.reduce((sum, slice) => sum + (pool.isUsable[slice.position] ? slice.gpus : 0), 0);
  let unallocatedGpus = 0;
  const budgetIdOfSlot: string[] = [];
  const slotByBudgetId = new Map<string, number>();
  const allocated: ViewedRun[] = [];
  for (const entry of live) {
    if (entry.isGone) continue;
    if (!entry.isAllocated) unallocatedGpus += usable(entry);
    else {
      if (entry.budgetSlot >= budgetIdOfSlot.length) budgetIdOfSlot.length = entry.budgetSlot + 1;
      budgetIdOfSlot[entry.budgetSlot] = entry.budgetId;
      slotByBudgetId.set(entry.budgetId, entry.budgetSlot);
      allocated.push({
        budgetSlot: entry.budgetSlot,
        rank: entry.rank,
        gpus: usable(entry),
        isProtected: entry.isProtectedNow,
        untilSec: entry.protectedUntilSec,
        slot: -1,
      });
    }
  }
  return { unallocatedGpus, budgetIdOfSlot, slotByBudgetId, allocated };
}

/**
 * Aggregates over runs seen from a job of rank r: GPUs preemptable now, held by protected runs
 * of lower-ranked budgets (with a Fenwick tree over their protection ends, to find when enough
 * become free), and held by budgets ranked at or above. Queried in non-decreasing rank (queue
 * order), runs move once from "below" to "above", so all views cost O(runs log runs).
 */
function createRankViews(live: readonly LiveRun[], pool: GpuPool) {
  const { unallocatedGpus, budgetIdOfSlot, slotByBudgetId, allocated } = collectRuns(live, pool);
  const protectedRuns = allocated
    .filter((run) => run.isProtected)
    .sort((a, b) => a.untilSec - b.untilSec);
  protectedRuns.forEach((run, slot) => (run.slot = slot));
  const ends = protectedRuns.map((run) => run.untilSec);
  allocated.sort((a, b) => a.rank - b.rank);
  const size = protectedRuns.length;
  const tree = new Float64Array(size + 1);
  const add = (slot: number, gpus: number): void => {
    for (let i = slot + 1; i <= size; i += i & -i) tree[i] = tree[i]! + gpus;
  };
  let cursor = 0;
  let currentRank = Number.NEGATIVE_INFINITY;
  let unprotectedBelowGpus = 0;
  let protectedBelowGpus = 0;
  let heldByHigherGpus = 0;
  // GPUs per budget slot among those ranked at or above, and the two slots holding the most:
  // sums only grow between resets, so the top two stay exact (a job's own budget may be one).
  const heldBySlot = new Float64Array(budgetIdOfSlot.length);
  let top = -1;
  let second = -1;
  const hold = (slot: number, gpus: number): void => {
    const held = (heldBySlot[slot] = heldBySlot[slot]! + gpus);
    if (slot === top) return;
    if (top === -1 || held > heldBySlot[top]!) {
      second = top;
      top = slot;
    } else if (slot !== second && (second === -1 || held > heldBySlot[second]!)) {
      second = slot;
    }
  };
  const reset = (): void => {
    tree.fill(0);
    cursor = 0;
    unprotectedBelowGpus = 0;
    protectedBelowGpus = 0;
    heldByHigherGpus = 0;
    heldBySlot.fill(0);
    top = -1;
    second = -1;
    for (const run of allocated) {
      if (run.isProtected) {
        protectedBelowGpus += run.gpus;
        add(run.slot, run.gpus);
      } else unprotectedBelowGpus += run.gpus;
    }
  };
  reset();
  const moveTo = (rank: number): void => {
    if (rank < currentRank) reset();
    currentRank = rank;
    while (cursor < allocated.length && allocated[cursor]!.rank <= rank) {
      const run = allocated[cursor]!;
      heldByHigherGpus += run.gpus;
      if (run.gpus > 0) hold(run.budgetSlot, run.gpus);
      if (run.isProtected) {
        protectedBelowGpus -= run.gpus;
        add(run.slot, -run.gpus);
      } else unprotectedBelowGpus -= run.gpus;
      cursor += 1;
    }
  };
  /** Smallest protection end by which at least `gpus` of lower-ranked protected GPUs free up. */
  const endCovering = (gpus: number): number | null => {
    if (gpus > protectedBelowGpus) return null;
    let position = 0;
    let remaining = gpus;
    for (let step = 1 << Math.floor(Math.log2(Math.max(1, size))); step > 0; step >>= 1) {
      const next = position + step;
      if (next <= size && tree[next]! < remaining) {
        position = next;
        remaining -= tree[next]!;
      }
    }
    return ends[position] ?? null;
  };
  return (rank: number) => {
    moveTo(rank);
    return {
      preemptableGpus: unallocatedGpus + unprotectedBelowGpus,
      protectedGpus: protectedBelowGpus,
      heldByHigherGpus,
      endCovering,
      /** GPUs the runs of `ownId` hold (counted in `heldByHigherGpus`: its rank is the job's). */
      ownGpus: (ownId: string): number => {
        const slot = slotByBudgetId.get(ownId);
        return slot === undefined ? 0 : heldBySlot[slot]!;
      },
      /** The budget other than `ownId` holding the most GPUs at or above this rank, if any. */
      topHolder: (ownId: string): { budgetId: string; gpus: number } | null => {
        const slot = top !== -1 && budgetIdOfSlot[top] === ownId ? second : top;
        return slot === -1 ? null : { budgetId: budgetIdOfSlot[slot]!, gpus: heldBySlot[slot]! };
      },
    };
  };
}

/** The views of runs from a rank (`createRankViews`). */
type RankViews = ReturnType<typeof createRankViews>;

/** Unprotected allocated runs of one budget and size: the share guard answers per group. */
type RunGroup = { budgetId: string; rank: number; gpus: number; usableGpus: number };

/** What every waiting job's reason reads, computed once per pass (see `describeWaiting`). */
type WaitFacts = {
  context: WaitContext;
  /** Free GPUs of usable nodes. */
  freeGpus: number;
  /** Usable full-size nodes with every GPU free. */
  freeWholeNodes: number;
  /** The most free GPUs on one usable node. */
  mostFreeOnOneNode: number;
  /** GPUs of nodes that are down or draining. */
  unusableGpus: number;
  viewOf: RankViews;
  runGroups: Map<string, RunGroup>;
  /** Per size: whether free GPUs could hold it, reservation or not. */
  fitsWithoutReservation: Map<number, boolean>;
  /** Per budget: the other budget ranked at or above holding the most GPUs, if any. */
  heldMostByBudget: Map<string, (Comparison & { gpus: number }) | null>;
  /** Unprotected allocated runs on the node kept for short jobs (ADR 098), read once. */
  keptForShortRuns: LiveRun[];
};

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

/** Free GPUs and free whole nodes of usable nodes, and the GPUs of unusable ones. */
function countFree(
  pool: GpuPool,
): Pick<WaitFacts, "freeGpus" | "freeWholeNodes" | "mostFreeOnOneNode" | "unusableGpus"> {
  let freeGpus = 0;
  let freeWholeNodes = 0;
  let mostFreeOnOneNode = 0;
  let unusableGpus = 0;
  for (let position = 0; position < pool.free.length; position += 1) {
    if (!pool.isUsable[position]) {
      unusableGpus += pool.capacity[position]!;
      continue;
    }
    freeGpus += pool.free[position]!;
    mostFreeOnOneNode = Math.max(mostFreeOnOneNode, pool.free[position]!);
    if (
      pool.capacity[position] === pool.nodeSizeGpus &&
      pool.free[position] === pool.nodeSizeGpus
    ) {
      freeWholeNodes += 1;
    }
  }
  return { freeGpus, freeWholeNodes, mostFreeOnOneNode, unusableGpus };
}

/** Unprotected allocated runs grouped by budget and size, with their GPUs on usable nodes. */
function groupUnprotectedRuns(live: readonly LiveRun[], pool: GpuPool): Map<string, RunGroup> {
  const groups = new Map<string, RunGroup>();
  for (const entry of live) {
    if (entry.isGone || !entry.isAllocated || entry.isProtectedNow) continue;
    const key = `${entry.budgetId}/${entry.gpus}`;
    let group = groups.get(key);
    if (!group) {
      group = { budgetId: entry.budgetId, rank: entry.rank, gpus: entry.gpus, usableGpus: 0 };
      groups.set(key, group);
    }
    for (const slice of entry.slices) {
      if (pool.isUsable[slice.position]) group.usableGpus += slice.gpus;
    }
  }
  return groups;
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
  const isWholeNodes = context.shapeOf(job.gpus).wholeNodes > 0;
  const budget = context.budgetRef(job.budgetId);
  const rank = context.rankOf(job.budgetId);
  if (!isAllocated) {
    return {
      rule: "wait-unallocated",
      atSec: nowSec,
      budget,
      needGpus: job.gpus,
      isWholeNodes,
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
  return {
    rule: "wait-resources",
    atSec: nowSec,
    budget,
    needGpus: job.gpus,
    isWholeNodes,
    freeGpus,
    freeWholeNodes,
    protectedGpus: view.protectedGpus,
    readyAtSec:
      isHolder && reservation
        ? reservation.readyAtSec
        : readyAtSecFor(facts, view, job.gpus, heldWithinShareGpus + keptGpus),
    heldByHigherGpus: view.heldByHigherGpus,
    heldByOwnGpus: view.ownGpus(job.budgetId),
    heldWithinShareGpus,
    unusableGpus: facts.unusableGpus,
    budgetsAbove: rank - 1,
    reservedNodes: isHolder && reservation ? reservation.nodes : [],
    heldMostBy,
    ...(keptGpus > 0
      ? { keptForShort: { node: context.pool.indexOf[context.shortReserveAt]!, gpus: keptGpus } }
      : {}),
  };
}
