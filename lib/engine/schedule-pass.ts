import { loadClusterState, type ClusterState } from "./cluster-state";
import { protectedUntilSec } from "./contract";
import {
  createBudgetRefs,
  createPartingLookup,
  rankBudgets,
  type FairTreeRanking,
} from "./fair-tree";
import type { Holdings } from "./holdings";
import {
  guardedPreemptableGpus,
  judgeSlotByShareGuard,
  type PreemptableTotals,
} from "./preemptable-totals";
import {
  isPendingQueue,
  queueFromPending,
  type BackfillScreen,
  type QueueGroup,
  type RankOf,
} from "./pending-queue";
import { mayPlaceWithin, placeJob, placementShape, type FreeGpuBounds } from "./placement";
import {
  addRoomOf,
  canMakeRoom,
  hasRoomIn,
  planPreemption,
  positionsWithRoom,
  rankPreemptionReason,
  roomAmong,
} from "./preemption";
import type { BudgetRef, Comparison, KeptFor, StartDecision, WaitDecision } from "./reasons";
import { forgetWholeNodeScan, type Reservation } from "./reservation";
import type { LiveRun } from "./live-run";
import { touchNodeRuns } from "./node-runs";
import type { SchedulePassInput, SchedulePassResult } from "./pass-types";
import type { NodeSlice, PendingJob } from "./types";
import { usageWindowSec } from "./usage-window";
import type { WaitContext } from "./wait-reasons";
import { openReservation, type HeldReservation } from "./pass-reservation";
import { startUnallocatedJobs } from "./pass-unallocated";
import { describeWaitingJobs } from "./pass-waits";

export type { SchedulePassInput, SchedulePassResult } from "./pass-types";

/**
 * One scheduling pass of one cluster at `nowSec` (docs/contract.md, ADR 010): kills runs on
 * down nodes, preempts unprotected runs on draining nodes, then walks the queue (allocated jobs
 * by rank, priority within a budget, submit time, id; unallocated jobs after) and starts what
 * fits, preempting unallocated runs and unprotected runs of lower-ranked budgets only when that
 * lets the job start at once. The first allocated job that cannot start gets a reservation of
 * the nodes where it can start soonest; later allocated jobs may not use them, except to backfill
 * with a protection that ends before those nodes are ready. Unallocated jobs then take any GPUs
 * still free. Every pending job gets a start or a reason to wait.
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
 * The room of each node for the job a pass plans for, written anew for each plan and read only
 * within it: one list for every pass (passes never run inside one another), so that plans make
 * none.
 */
const roomScratch: number[] = [];

/**
 * The fewest unprotected runs of one budget for which a plan's room asks the share guard for one
 * verdict on them all (`judgeSlotByShareGuard`) rather than asking it of each run.
 */
const MIN_RUNS_JUDGED_AS_ONE = 4;

/** The decisions of a pass on the loaded cluster state (see `runSchedulePass`). */
function decide(
  input: SchedulePassInput,
  ranking: FairTreeRanking,
  rankOf: (budgetId: string) => number,
  budgetRef: (budgetId: string) => BudgetRef,
  state: ClusterState,
): SchedulePassResult {
  const { cluster, nowSec, tree } = input;
  const { pool, live, heldByPosition, preemptions, victimsByPosition } = state;
  // Allocated GPUs held per tree node, kept current through the pass (the share guard, ADR 011).
  const holdings = state.loadHoldings(tree);
  // Tree node per budget slot, for the share guard asked of many runs; filled as asked.
  const nodeBySlot = state.nodeBySlotOn(tree);
  const nodeOfSlot = (slot: number): number =>
    (nodeBySlot[slot] ??= holdings.nodeIndexOf(state.budgetSlots.ids[slot]!));
  const preemptableGpus = createPreemptableBound(state, holdings, nodeOfSlot);
  // Where two budgets' paths part, for preemption and wait sentences (docs/ranking.md).
  const partingOf = createPartingLookup(tree, ranking);
  const endRun: typeof state.endRun = (entry, reason) => {
    state.endRun(entry, reason);
    if (entry.isAllocated) holdings.add(entry.budgetId, -entry.gpus);
    for (const slice of entry.slices) {
      if (pool.isUsable[slice.position]) {
        bounds.usableFreeGpus += slice.gpus;
        freedOn(slice.position);
      }
    }
  };

  // Jobs that can never start as submitted, then the queue, read only as far as needed.
  const queue = isPendingQueue(input.pending)
    ? input.pending
    : queueFromPending(input.pending, tree, cluster);
  const waiting: WaitDecision[] = [...queue.errors];
  const isStarted = new Set<PendingJob>();
  const { minGpus } = queue;
  // The free GPUs of healthy nodes, kept exact by starts and preemptions (below minGpus, nothing
  // fits), and bounds on what one placement could take, so most failing placements need no scan:
  // starts only lower the truth below those, preemptions raise them (`freedOn`).
  // Standing runs count them as they come and go; else every usable position is read.
  const bounds: FreeGpuBounds = state.freeBounds ?? {
    nodeSizeGpus: pool.nodeSizeGpus,
    usableFreeGpus: 0,
    maxNodeFreeGpus: 0,
    wholeFreeNodes: 0,
  };
  const freedOn = (position: number): void => {
    const free = pool.free[position]!;
    if (free > bounds.maxNodeFreeGpus) bounds.maxNodeFreeGpus = free;
    if (free === pool.nodeSizeGpus && pool.capacity[position] === free) bounds.wholeFreeNodes += 1;
  };
  if (!state.freeBounds) {
    for (let position = 0; position < pool.free.length; position += 1) {
      if (!pool.isUsable[position]) continue;
      bounds.usableFreeGpus += pool.free[position]!;
      freedOn(position);
    }
  }
  // False only when no placement of `gpus` on free GPUs exists (`placeJob` would give null).
  const mayPlace = (gpus: number): boolean => mayPlaceWithin(bounds, gpus);

  const starts: StartDecision[] = [];
  let startedAllocated = 0;
  let startedUnallocated = 0;
  const start = (
    job: PendingJob,
    isAllocated: boolean,
    placement: NodeSlice[],
    preemptedRunIds: string[],
    keptFor: KeptFor | null = null,
    outranked: Comparison | null = null,
  ): void => {
    const slices = placement.map((slice) => ({
      position: pool.positionOf.get(slice.node)!,
      gpus: slice.gpus,
    }));
    for (const slice of slices) {
      pool.free[slice.position] = pool.free[slice.position]! - slice.gpus;
      if (pool.free[slice.position]! < 0) throw new Error("Placement overfilled a node.");
      if (pool.isUsable[slice.position]) bounds.usableFreeGpus -= slice.gpus;
      if (state.nodeRuns) touchNodeRuns(state.nodeRuns, slice.position);
    }
    const until = protectedUntilSec(nowSec, job.minRuntimeSec, isAllocated);
    const index = live.length;
    if (isAllocated) {
      holdings.add(job.budgetId, job.gpus);
      startedAllocated += 1;
    } else startedUnallocated += 1;
    live.push({
      id: `start:${job.id}`,
      budgetId: job.budgetId,
      budgetSlot: state.budgetSlots.slotOf(job.budgetId),
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
    for (const slice of slices) heldByPosition[slice.position]!.push(index);
    const nodes = placement.map((slice) => slice.node);
    starts.push({
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
  };

  // The reservation of the first allocated job that could not start. Its nodes are chosen on
  // the state at that moment, but only once a later decision needs them, and most passes never
  // need them. Nothing ends in between, and nothing starts but on nodes shown to be outside the
  // reservation (ADR 014): a start there only makes its node later to be ready, so the nodes
  // chosen are the same. The share guard is asked on the holdings of that moment (`shield`,
  // copied before such a start).
  let reservation: HeldReservation | null = null;
  const reserved = (): Reservation | null =>
    reservation && (reservation.value ??= reservation.compute());
  // Keeps a placement of free GPUs if its one node is outside the reservation, shown without
  // choosing the reservation where it can be; else places the job outside the reservation.
  const placeOutsideReservation = (job: PendingJob, placement: NodeSlice[]): NodeSlice[] | null => {
    const open = reservation!;
    if (open.value === null && open.check && placement.length === 1) {
      const verdict = open.check(pool.positionOf.get(placement[0]!.node)!);
      if (verdict.isOutside) {
        open.shield ??= holdings.snapshot();
        return placement;
      }
      open.value = verdict.reservation;
    }
    return mayPlace(job.gpus) ? placeJob(pool, job.gpus, reserved()!.isExcluded) : null;
  };

  // Starts a job on free GPUs outside the reservation, else after preempting what it may preempt.
  const tryStart = (
    job: PendingJob,
    jobRank: number,
  ): "started" | "started-with-surplus" | "failed" => {
    // Reserved nodes only take options away: what cannot be placed or planned without them
    // cannot be with them, and then the reservation's nodes need not be chosen. Fewer free GPUs
    // than the job needs: no placement at all.
    const isReservationOpen = reservation !== null && reservation.value === null;
    let placement = mayPlace(job.gpus) ? placeJob(pool, job.gpus) : null;
    if (placement && reservation) placement = placeOutsideReservation(job, placement);
    if (placement) {
      start(job, true, placement, []);
      return "started";
    }
    // Most plans fail: skip those that could not free enough GPUs even with every victim.
    const missingGpus = job.gpus - bounds.usableFreeGpus;
    if (preemptableGpus(job, jobRank, missingGpus) < missingGpus) return "failed";
    const jobNode = holdings.nodeIndexOf(job.budgetId);
    // A victim: unallocated, or unprotected and of a budget ranked below the job's (open), and
    // then one the share guard lets the job preempt (allowed).
    const isOpenRun = (entry: LiveRun): boolean =>
      !entry.isGone && (!entry.isAllocated || (!entry.isProtectedNow && entry.rank > jobRank));
    const isAllowedRun = (entry: LiveRun): boolean =>
      isOpenRun(entry) &&
      (!entry.isAllocated ||
        holdings.mayPreemptAt(jobNode, nodeOfSlot(entry.budgetSlot), job.gpus, entry.gpus));
    // Runs started in this pass are never victims.
    const isAllowed = (index: number): boolean =>
      index < state.loadedCount && isAllowedRun(live[index]!);
    // With standing totals, only the runs they count could be victims.
    const totals = state.preemptable;
    const room = totals
      ? countVictimRoom(state, totals, holdings, nodeOfSlot, job, jobRank, isOpenRun, isAllowedRun)
      : null;
    // The nodes that could count, read once: the job may be asked about up to three times.
    const roomy = room ? positionsWithRoom(pool, job.gpus, room) : null;
    // Most of the plans left fail too, for want of one node that could be cleared enough: checked
    // first without the reservation (which need not be chosen then), then outside it.
    const canPlan = (excluded?: Uint8Array): boolean =>
      room
        ? hasRoomIn(pool, job.gpus, room, excluded, roomy!)
        : canMakeRoom(pool, job.gpus, live, state.heldByPosition, isAllowed, excluded);
    if (isReservationOpen && !canPlan()) return "failed";
    // A gang job's reservation often takes every node that could be cleared: the nodes it surely
    // takes, found without choosing them all, may show it (more nodes excluded, less room).
    if (reservation?.value === null && room) {
      const sure = reservation.surely();
      if (sure && !hasRoomIn(pool, job.gpus, room, sure, roomy!)) return "failed";
    }
    const excluded = reserved()?.isExcluded;
    if (!canPlan(excluded)) return "failed";
    // Only the nodes with room could serve: their victim lists alone are built and read.
    const positions = roomy ?? undefined;
    const plan = planPreemption(
      pool,
      job.gpus,
      live,
      victimsByPosition(positions),
      isAllowed,
      nowSec,
      excluded,
      positions,
    );
    if (!plan) throw new Error("A plan failed where canMakeRoom found room.");
    // GPUs freed beyond what the job takes on a node may let an earlier-failed size fit.
    const surplus = new Map<number, number>();
    for (const slice of plan.placement) surplus.set(slice.node, -slice.gpus);
    const preemptor = { jobId: job.id, budget: budgetRef(job.budgetId), gpus: job.gpus };
    let outranked: Comparison | null = null;
    for (const index of plan.victims) {
      const entry = live[index]!;
      const run = entry.run!;
      for (const slice of run.placement) {
        surplus.set(slice.node, (surplus.get(slice.node) ?? 0) + slice.gpus);
      }
      const parting = run.isAllocated ? partingOf(job.budgetId, run.budgetId) : null;
      const victim = budgetRef(run.budgetId);
      if (run.isAllocated && outranked === null) outranked = { budget: victim, parting };
      endRun(entry, rankPreemptionReason(run, preemptor, victim, nowSec, parting));
    }
    start(
      job,
      true,
      plan.placement,
      plan.victims.map((index) => live[index]!.run!.id),
      null,
      outranked,
    );
    const hasSurplus = [...surplus].some(
      ([node, gpus]) => gpus > 0 && pool.isUsable[pool.positionOf.get(node)!] === 1,
    );
    return hasSurplus ? "started-with-surplus" : "started";
  };
  // The screen of backfill candidates the walk may pass over, set before each read.
  const backfill: BackfillScreen = { fromGpus: 0, nowSec, untilSec: 0 };
  // The state of one sweep of the allocated queue, set anew at each (below). Jobs come in
  // non-decreasing rank, so whoever could not start at size g blocks every later job of size
  // >= g until a preemption changes the picture.
  let hasFreedExtra = false;
  let smallestFailedGpus = Number.POSITIVE_INFINITY;
  let smallestFailedBackfillGpus = Number.POSITIVE_INFINITY;
  // Whether a job of this rank, size and minimum runtime could still start: not blocked by
  // size, or a backfill candidate (below). Checked on group bounds, a group that cannot is
  // passed over unread, and once no job of the queue could, the sweep ends.
  const mayStart = (rank: number, gpus: number, minRuntimeSec: number): boolean =>
    gpus < smallestFailedGpus || mayBackfill(rank, gpus, minRuntimeSec);
  // Backfill: a job whose protection ends before the reserved nodes are needed may use their
  // free GPUs; the holder, ranked above, can preempt it by then. Cheap tests first: the
  // reservation's nodes are chosen only when they decide.
  const mayBackfill = (rank: number, gpus: number, minRuntimeSec: number): boolean => {
    if (reservation === null || rank <= reservation.holderRank) return false;
    if (gpus >= smallestFailedBackfillGpus || gpus > bounds.usableFreeGpus) return false;
    const readyAtSec = reserved()!.readyAtSec;
    return readyAtSec !== null && nowSec + minRuntimeSec <= readyAtSec;
  };
  // The group's next job that the screen below could let through: larger ones, and once the
  // group's bounds are checked, backfill candidates whose protection would outlast the
  // reservation's known ready time, are passed over in the queue's own loop; none when the
  // group's smallest is too large. (Unchecked, the first job read leads to the check, which
  // may end the group or the walk without reading the rest.)
  const nextOf = (group: QueueGroup, isChecked: boolean): PendingJob | undefined => {
    if (reservation === null || group.rank <= reservation.holderRank) {
      const maxGpus = smallestFailedGpus - 1;
      return maxGpus < group.minGpus ? undefined : group.next(maxGpus);
    }
    const maxGpus = Math.max(
      smallestFailedGpus - 1,
      Math.min(smallestFailedBackfillGpus - 1, bounds.usableFreeGpus),
    );
    if (maxGpus < group.minGpus) return undefined;
    const known = reservation.value;
    if (known === null || !isChecked) return group.next(maxGpus);
    backfill.fromGpus = smallestFailedGpus;
    backfill.untilSec = known.readyAtSec ?? Number.NEGATIVE_INFINITY;
    return group.next(maxGpus, backfill);
  };
  // Sweep the allocated queue; sweep again only if a preemption freed GPUs beyond its job's.
  for (let sweep = 0; sweep < 8; sweep += 1) {
    reservation = null;
    hasFreedExtra = false;
    smallestFailedGpus = Number.POSITIVE_INFINITY;
    smallestFailedBackfillGpus = Number.POSITIVE_INFINITY;
    const nextGroup = queue.walk(true, rankOf);
    groups: for (let group = nextGroup(); group; group = nextGroup()) {
      const jobRank = group.rank;
      // The bounds change only when a job is tried: checked then and at the group's start.
      let isChecked = false;
      for (let job = nextOf(group, isChecked); job; job = nextOf(group, isChecked)) {
        if (!isChecked) {
          if (!mayStart(Number.POSITIVE_INFINITY, minGpus, 0)) break groups;
          if (!mayStart(jobRank, group.minGpus, group.minMinRuntimeSec)) continue groups;
          isChecked = true;
        }
        // A job too large to start that could not backfill either: the usual case, screened
        // first on what is known without choosing the reservation's nodes.
        if (
          job.gpus >= smallestFailedGpus &&
          (reservation === null ||
            jobRank <= reservation.holderRank ||
            job.gpus >= smallestFailedBackfillGpus ||
            job.gpus > bounds.usableFreeGpus ||
            (reservation.value !== null &&
              (reservation.value.readyAtSec === null ||
                nowSec + job.minRuntimeSec > reservation.value.readyAtSec)))
        ) {
          continue;
        }
        if (isStarted.has(job)) continue;
        isChecked = false;
        if (job.gpus < smallestFailedGpus) {
          const outcome = tryStart(job, jobRank);
          if (outcome !== "failed") isStarted.add(job);
          if (outcome === "started") {
            continue;
          }
          if (outcome === "started-with-surplus") {
            hasFreedExtra = true;
            smallestFailedGpus = Number.POSITIVE_INFINITY;
            smallestFailedBackfillGpus = Number.POSITIVE_INFINITY;
            continue;
          }
          smallestFailedGpus = job.gpus;
          if (!reservation) {
            reservation = openReservation({
              job,
              jobRank,
              pool,
              live,
              heldByPosition,
              nowSec,
              nodeRuns: state.nodeRuns,
              holdings,
              nodeOfSlot,
            });
            continue;
          }
        }
        if (reservation && mayBackfill(jobRank, job.gpus, job.minRuntimeSec)) {
          const placement = mayPlace(job.gpus) ? placeJob(pool, job.gpus) : null;
          if (placement) {
            start(job, true, placement, [], {
              jobId: reservation.holder.id,
              budget: budgetRef(reservation.holder.budgetId),
              readyAtSec: reserved()!.readyAtSec!,
            });
            isStarted.add(job);
          } else {
            smallestFailedBackfillGpus = job.gpus;
          }
        }
      }
    }
    if (!hasFreedExtra) break;
  }
  // Wait reasons name the reservation as the allocated sweep left it.
  const heldReservation = input.describeWaits === false ? null : reserved();
  // Unallocated work takes only GPUs no allocated job could start on in this pass.
  startUnallocatedJobs(queue, rankOf, pool, bounds, (job, placement) => {
    start(job, false, placement, []);
    isStarted.add(job);
  });

  const waitingCounts = {
    allocated: queue.allocatedCount - startedAllocated,
    unallocated: queue.unallocatedCount - startedUnallocated,
  };
  if (input.describeWaits !== false) {
    const context: WaitContext = {
      nowSec,
      pool,
      live,
      reservation:
        reservation && heldReservation
          ? {
              holderId: reservation.holder.id,
              holderBudgetId: reservation.holder.budgetId,
              holderGpus: reservation.holder.gpus,
              ...heldReservation,
            }
          : null,
      rankOf,
      budgetRef,
      partingOf,
      shapeOf: (gpus) => placementShape(gpus, pool.nodeSizeGpus),
      holdings,
    };
    describeWaitingJobs(queue, rankOf, isStarted, context, waiting);
  }
  return {
    atSec: nowSec,
    ranking,
    starts,
    preemptions,
    waiting,
    waitingCounts,
    reservationHolderRank: reservation?.holderRank ?? null,
    drainsCompleted: state.drainsCompleted,
  };
}

/**
 * The GPUs each position could offer a job (`roomAmong`) from the runs the standing totals count:
 * unallocated ones, and unprotected ones of budgets ranked below the job's. The share guard gives
 * one verdict per budget with many such runs: when it refuses them all (the usual case on Philly)
 * they are passed over unread, when it allows them all they are read with `isOpenRun` alone; the
 * runs of other budgets are read with `isAllowedRun`, which asks it of each.
 */
function countVictimRoom(
  state: ClusterState,
  totals: PreemptableTotals,
  holdings: Holdings,
  nodeOfSlot: (slot: number) => number,
  job: PendingJob,
  jobRank: number,
  isOpenRun: (entry: LiveRun) => boolean,
  isAllowedRun: (entry: LiveRun) => boolean,
): number[] {
  const openGroups: Set<LiveRun>[] = [totals.unallocatedRuns];
  const guardedGroups: Set<LiveRun>[] = [];
  const guardJob = { node: holdings.nodeIndexOf(job.budgetId), gpus: job.gpus };
  const { runsBySlot } = totals;
  for (let slot = 0; slot < runsBySlot.length; slot += 1) {
    const runs = runsBySlot[slot];
    if (runs === undefined || state.rankBySlot[slot]! <= jobRank) continue;
    const count = runs.size;
    if (count === 0) continue;
    if (count < MIN_RUNS_JUDGED_AS_ONE) {
      guardedGroups.push(runs);
      continue;
    }
    const verdict = judgeSlotByShareGuard(totals, slot, guardJob, holdings, nodeOfSlot(slot));
    if (verdict === "all") openGroups.push(runs);
    else if (verdict === "some") guardedGroups.push(runs);
  }
  const room = roomAmong(state.pool, openGroups, isOpenRun, roomScratch);
  addRoomOf(room, guardedGroups, isAllowedRun);
  return room;
}

/**
 * An upper bound on the GPUs of healthy nodes that preemption could free for a job: those of
 * unprotected runs that are unallocated, or of a budget ranked below the job's that the share
 * guard lets it preempt on the holdings of the moment. Runs are taken as loaded: preemptions
 * and starts since only lower the truth. With standing totals, runs are taken as standing, before
 * this pass's down-node and drain ends, and GPUs on down or draining nodes count too: the bound
 * only grows. Grouped by budget and run size, so a query costs O(budgets x sizes) instead of a
 * walk over every victim. With standing totals, counting stops once it reaches `enoughGpus` (all
 * the caller compares it with).
 */
function createPreemptableBound(
  state: ClusterState,
  holdings: Holdings,
  nodeOfSlot: (slot: number) => number,
): (job: PendingJob, jobRank: number, enoughGpus: number) => number {
  type Group = { budgetId: string; rank: number; gpus: number; usable: number };
  // Built on the first query: most passes place or give up before any plan.
  let unallocatedGpus = 0;
  let byRank: Group[] | null = null;
  const build = (): Group[] => {
    const { live, pool } = state;
    // Groups per budget slot, few sizes each: a short list beats a map.
    const bySlot: (Group[] | undefined)[] = [];
    const list: Group[] = [];
    for (const entry of live) {
      if (entry.isGone || entry.isProtectedNow) continue;
      let usable = 0;
      for (const slice of entry.slices) if (pool.isUsable[slice.position]) usable += slice.gpus;
      if (usable === 0) continue;
      if (!entry.isAllocated) {
        unallocatedGpus += usable;
        continue;
      }
      let groups = bySlot[entry.budgetSlot];
      if (!groups) {
        groups = [];
        bySlot[entry.budgetSlot] = groups;
      }
      let group: Group | undefined;
      for (let i = 0; i < groups.length && !group; i += 1) {
        if (groups[i]!.gpus === entry.gpus) group = groups[i];
      }
      if (group) group.usable += usable;
      else {
        group = { budgetId: entry.budgetId, rank: entry.rank, gpus: entry.gpus, usable };
        groups.push(group);
        list.push(group);
      }
    }
    return list.sort((a, b) => b.rank - a.rank);
  };
  const totals = state.preemptable;
  if (totals) {
    const rankOfSlot = (slot: number): number => state.rankBySlot[slot]!;
    return (job, jobRank, enoughGpus) =>
      guardedPreemptableGpus(
        totals,
        { node: holdings.nodeIndexOf(job.budgetId), gpus: job.gpus, rank: jobRank },
        holdings,
        rankOfSlot,
        nodeOfSlot,
        enoughGpus,
      );
  }
  return (job, jobRank) => {
    byRank ??= build();
    let total = unallocatedGpus;
    for (const group of byRank!) {
      if (group.rank <= jobRank) break;
      if (holdings.mayPreempt(job.budgetId, group.budgetId, job.gpus, group.gpus)) {
        total += group.usable;
      }
    }
    return total;
  };
}
