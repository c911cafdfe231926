import type { ClusterState } from "./cluster-state";
import { protectedUntilSec } from "./contract";
import { createPartingLookup } from "./budget-refs";
import type { FairTreeRanking } from "./fair-tree-ranking";
import type { Holdings } from "./holdings";
import type { LiveRun } from "./live-run";
import { touchNodeRuns } from "./node-runs";
import type { HeldReservation } from "./pass-reservation";
import type { PassScratch } from "./pass-scratch";
import type { FastPassInput } from "./pass-types";
import type { RankOf } from "./pending-queue";
import { mayPlaceWithin, type FreeGpuBounds, type GpuPool } from "./placement";
import { createPreemptableBound, type PreemptableBound } from "./preemptable-bound";
import type {
  BudgetRef,
  Comparison,
  KeptFor,
  PreemptReason,
  ShortStart,
  StartDecision,
} from "./reasons";
import { fullSizeUsableNodes, type Reservation } from "./reservation";
import { chooseShortReserve } from "./short-reserve";
import type { NodeSlice, PendingJob } from "./types";

// The state one scheduling pass carries from phase to phase (`runSchedulePass`): the loaded
// cluster, what the pass decided so far, and the state of the current sweep of the allocated
// queue. Each phase (pass-sweep, pass-place, pass-preempt, pass-backfill, pass-unallocated,
// pass-waits) reads and changes it; nothing outside one pass sees it.

/** What the phases of one pass share: see the file's head. Internal to the pass. */
export type PassState = {
  readonly nowSec: number;
  /** The cluster as loaded (`loadClusterState`), changed by the pass's starts and ends. */
  readonly loaded: ClusterState;
  readonly pool: GpuPool;
  readonly live: LiveRun[];
  readonly rankOf: RankOf;
  readonly budgetRef: (budgetId: string) => BudgetRef;
  /** Where two budgets' paths part, for preemption and wait sentences (docs/ranking.md). */
  readonly partingOf: ReturnType<typeof createPartingLookup>;
  /** Allocated GPUs held per tree node, kept current through the pass (the share guard, ADR 011). */
  readonly holdings: Holdings;
  /** The tree node of a budget slot (`Holdings.nodeIndexOf`), looked up once per slot. */
  readonly nodeOfSlot: (slot: number) => number;
  /** An upper bound on the GPUs preemption could free for a job (`createPreemptableBound`). */
  readonly preemptableGpus: PreemptableBound;
  /** Working memory the phases reuse (`PassScratch`). */
  readonly scratch: PassScratch;
  /**
   * The free GPUs of healthy nodes, kept exact by starts and preemptions (below the queue's
   * smallest job, nothing fits), and bounds on what one placement could take, so most failing
   * placements need no scan: starts only lower the truth below those, preemptions raise them.
   */
  readonly bounds: FreeGpuBounds;
  /**
   * The position whose runs are kept for short jobs in this pass (`chooseShortReserve`, ADR
   * 098), or -1: chosen on the cluster as loaded, before any decision.
   */
  readonly shortReserveAt: number;

  // What the pass decided so far.
  readonly starts: StartDecision[];
  readonly isStarted: Set<PendingJob>;
  startedAllocated: number;
  startedUnallocated: number;

  // The current sweep of the allocated queue (`sweepAllocatedQueue`), set anew at each.
  /**
   * The reservation of the sweep's first allocated job that could not start, its nodes chosen
   * only once a decision needs them (`HeldReservation`); null while none failed.
   */
  reservation: HeldReservation | null;
  /** The smallest size that failed to start in this sweep: no later job that large may start. */
  smallestFailedGpus: number;
  /** The smallest size that failed to backfill in this sweep: no later one that large may. */
  smallestFailedBackfillGpus: number;
  /** Whether a preemption freed GPUs beyond its job's: the queue is swept again. */
  hasFreedExtra: boolean;
};

/**
 * The state a pass starts its phases with, on the cluster as loaded: holdings read before any
 * run ends or starts, and the bounds of free GPUs, from the standing runs' counts or read from
 * every usable position.
 *
 * @example const pass = createPassState(input, ranking, rankOf, budgetRef, loaded)
 */
export function createPassState(
  input: FastPassInput,
  ranking: FairTreeRanking,
  rankOf: RankOf,
  budgetRef: (budgetId: string) => BudgetRef,
  loaded: ClusterState,
): PassState {
  const { tree } = input;
  const { pool } = loaded;
  const holdings = loaded.loadHoldings(tree);
  // Tree node per budget slot, for the share guard asked of many runs; filled as asked.
  const nodeBySlot = loaded.nodeBySlotOn(tree);
  const nodeOfSlot = (slot: number): number =>
    (nodeBySlot[slot] ??= holdings.nodeIndexOf(loaded.budgetSlots.ids[slot]!));
  const preemptableGpus = createPreemptableBound(loaded, holdings, nodeOfSlot);
  const partingOf = createPartingLookup(tree, ranking);
  // Standing runs count the free GPUs as they come and go; else every usable position is read.
  const bounds: FreeGpuBounds = loaded.freeBounds ?? {
    nodeSizeGpus: pool.nodeSizeGpus,
    usableFreeGpus: 0,
    maxNodeFreeGpus: 0,
    wholeFreeNodes: 0,
  };
  if (!loaded.freeBounds) {
    for (let position = 0; position < pool.free.length; position += 1) {
      if (!pool.isUsable[position]) continue;
      bounds.usableFreeGpus += pool.free[position]!;
      freedOn(pool, bounds, position);
    }
  }
  return {
    nowSec: input.nowSec,
    loaded,
    pool,
    live: loaded.live,
    rankOf,
    budgetRef,
    partingOf,
    holdings,
    nodeOfSlot,
    preemptableGpus,
    scratch: input.scratch,
    bounds,
    shortReserveAt: chooseShortReserve(
      pool,
      loaded.live,
      loaded.heldByPosition,
      fullSizeUsableNodes(pool, input.scratch.reservation),
    ),
    starts: [],
    isStarted: new Set<PendingJob>(),
    startedAllocated: 0,
    startedUnallocated: 0,
    reservation: null,
    smallestFailedGpus: Number.POSITIVE_INFINITY,
    smallestFailedBackfillGpus: Number.POSITIVE_INFINITY,
    hasFreedExtra: false,
  };
}

/** Raises the bounds of free GPUs after GPUs were freed on `position`. */
function freedOn(pool: GpuPool, bounds: FreeGpuBounds, position: number): void {
  const free = pool.free[position]!;
  if (free > bounds.maxNodeFreeGpus) bounds.maxNodeFreeGpus = free;
  if (free === pool.nodeSizeGpus && pool.capacity[position] === free) bounds.wholeFreeNodes += 1;
}

/**
 * False only when no placement of `gpus` on free GPUs exists (`placeJob` would give null).
 *
 * @example if (mayPlace(pass, job.gpus)) placement = placeJob(pass.pool, job.gpus)
 */
export function mayPlace(pass: PassState, gpus: number): boolean {
  return mayPlaceWithin(pass.bounds, gpus);
}

/**
 * The sweep's reservation with its nodes chosen (chosen now if they were not yet), or null when
 * no job holds one.
 *
 * @example const readyAtSec = reservedNodes(pass)!.readyAtSec
 */
export function reservedNodes(pass: PassState): Reservation | null {
  const reservation = pass.reservation;
  return reservation && (reservation.value ??= reservation.compute());
}

/**
 * Ends a loaded run in the pass (a preemption for a start): frees its GPUs, records the
 * preemption, and keeps the holdings and the bounds of free GPUs current.
 *
 * @example endPassRun(pass, entry, rankPreemptionReason(run, preemptor, victim, nowSec, parting))
 */
export function endPassRun(pass: PassState, entry: LiveRun, reason: PreemptReason): void {
  const { pool, bounds } = pass;
  pass.loaded.endRun(entry, reason);
  if (entry.isAllocated) pass.holdings.add(entry.budgetId, -entry.gpus);
  for (const slice of entry.slices) {
    if (pool.isUsable[slice.position]) {
      bounds.usableFreeGpus += slice.gpus;
      freedOn(pool, bounds, slice.position);
    }
  }
}

/**
 * Starts `job` on `placement` now: takes the GPUs, adds the run to the live runs (never a victim
 * in this pass), and records the start with its reason. An allocated start gets its protection
 * and counts in the holdings; `short` is set for a start of the short sweep (ADR 092). Throws
 * when the placement overfills a node.
 *
 * @example startJob(pass, job, true, placement, [])
 */
export function startJob(
  pass: PassState,
  job: PendingJob,
  isAllocated: boolean,
  placement: NodeSlice[],
  preemptedRunIds: string[],
  keptFor: KeptFor | null = null,
  outranked: Comparison | null = null,
  short: ShortStart | null = null,
): void {
  const { pool, bounds, loaded, live, nowSec, rankOf, budgetRef } = pass;
  const slices = placement.map((slice) => ({
    position: pool.positionOf.get(slice.node)!,
    gpus: slice.gpus,
  }));
  for (const slice of slices) {
    pool.free[slice.position] = pool.free[slice.position]! - slice.gpus;
    if (pool.free[slice.position]! < 0) throw new Error("Placement overfilled a node.");
    if (pool.isUsable[slice.position]) bounds.usableFreeGpus -= slice.gpus;
    if (loaded.nodeRuns) touchNodeRuns(loaded.nodeRuns, slice.position);
  }
  const until = protectedUntilSec(nowSec, job.minRuntimeSec, isAllocated);
  const index = live.length;
  if (isAllocated) {
    pass.holdings.add(job.budgetId, job.gpus);
    pass.startedAllocated += 1;
  } else pass.startedUnallocated += 1;
  live.push({
    id: `start:${job.id}`,
    budgetId: job.budgetId,
    budgetSlot: loaded.budgetSlots.slotOf(job.budgetId),
    isAllocated,
    rank: rankOf(job.budgetId),
    startSec: nowSec,
    gpus: job.gpus,
    slices,
    protectedUntilSec: until,
    isGone: false,
    isProtectedNow: isAllocated && until > nowSec,
    run: null,
  });
  for (const slice of slices) loaded.heldByPosition[slice.position]!.push(index);
  const nodes = placement.map((slice) => slice.node);
  pass.starts.push({
    jobId: job.id,
    budgetId: job.budgetId,
    gpus: job.gpus,
    placement,
    isAllocated,
    protectedUntilSec: until,
    reason: isAllocated
      ? {
          rule: "start-allocated",
          atSec: nowSec,
          budget: budgetRef(job.budgetId),
          gpus: job.gpus,
          nodes,
          minRuntimeSec: job.minRuntimeSec,
          protectedUntilSec: until,
          preemptedRunIds,
          budgetsAbove: rankOf(job.budgetId) - 1,
          keptFor,
          outranked,
          ...(short && { short }),
        }
      : {
          rule: "start-unallocated",
          atSec: nowSec,
          budget: budgetRef(job.budgetId),
          gpus: job.gpus,
          nodes,
          cause: job.minRuntimeSec > 0 ? "zero-share" : "zero-min-runtime",
        },
  });
  pass.isStarted.add(job);
}
