import type { LiveRun } from "./live-run";
import { startInPlaceOf, type StartOutcome } from "./pass-preempt";
import { mayPlace, reservedNodes, startJob, type PassState } from "./pass-state";
import type { BackfillScreen, PendingQueue } from "./pending-queue";
import { placeJob } from "./placement";
import { preemptableGpus } from "./preemptable-totals";
import { canMakeRoom, hasRoomIn, planPreemption, positionsWithRoom, roomAmong } from "./preemption";
import type { KeptFor } from "./reasons";
import { SHORT_MAX_RUNTIME_SEC, shortMaxGpus, shortStart } from "./short-jobs";
import type { NodeSlice, PendingJob } from "./types";

/**
 * The pass's short sweep (ADR 092, 098), before the allocated sweeps (`isBeforeQueue`, when no
 * reservation is held yet) and again after them: walks the allocated queue in order and tries
 * each short job left waiting (at most 15 minutes protected, at most eight GPUs on one node,
 * `isShortJob`) on free GPUs, else by preempting unallocated runs and unprotected runs of
 * budgets ranked below its own (the contract and Fair Tree's ranks hold), the node kept for
 * short jobs included. Two rules differ from the allocated sweeps:
 * - the nodes kept for the reservation's holder serve short jobs unless they are ready within
 *   15 minutes: a short job's protection ends before the holder needs them (or no ready time is
 *   known: it waits on runs it may never preempt);
 * - the share guard (ADR 011) is waived: a job protected for minutes cannot take a budget's
 *   allocation away, and its run is charged to its own budget.
 * A short job that cannot start blocks every later one of its size or more (later jobs rank no
 * better, so may preempt no more); the sweep ends once no size is left. A preemption that frees
 * GPUs on healthy nodes beyond its job's ends it too, and gives true: the queue is then swept
 * again from the top (`decide`), as the allocated sweeps do. Internal to the pass.
 *
 * @example if (sweepShortJobs(pass, queue, false)) sweepAllocatedQueue(pass, queue)
 */
export function sweepShortJobs(
  pass: PassState,
  queue: PendingQueue,
  isBeforeQueue: boolean,
): boolean {
  let maxGpus = shortMaxGpus(pass.pool.nodeSizeGpus);
  if (maxGpus < queue.minGpus) return false;
  const untilSec = pass.nowSec + SHORT_MAX_RUNTIME_SEC;
  const screen: BackfillScreen = { fromGpus: 0, nowSec: pass.nowSec, untilSec };
  // The reservation's nodes, and whether short jobs may use them: chosen (`reservedNodes`) only
  // once a short job could start, before anything starts; most never could.
  let kept: KeptNodes | undefined;
  const keptOf = (): KeptNodes => (kept ??= keptNodes(pass, untilSec));
  const nextGroup = queue.walk(true, pass.rankOf);
  for (let group = nextGroup(); group && maxGpus >= queue.minGpus; group = nextGroup()) {
    if (group.minShortGpus > maxGpus) continue;
    // Free GPUs and all a job of this rank could preempt, at most: ranks only worsen, so once
    // too few for the queue's smallest job none later could start.
    const reachGpus = reachableGpus(pass, group.rank);
    if (reachGpus < queue.minGpus) break;
    let groupMaxGpus = Math.min(maxGpus, reachGpus);
    for (
      let job = group.next(groupMaxGpus, screen);
      job && group.minShortGpus <= groupMaxGpus;
      job = group.next(groupMaxGpus, screen)
    ) {
      if (job.gpus > groupMaxGpus || job.minRuntimeSec > SHORT_MAX_RUNTIME_SEC) continue;
      if (pass.isStarted.has(job)) continue;
      const outcome = tryStartShort(pass, job, group.rank, keptOf, isBeforeQueue);
      if (outcome === "started-with-surplus") return true;
      if (outcome === "failed") maxGpus = job.gpus - 1;
      groupMaxGpus = Math.min(maxGpus, reachableGpus(pass, group.rank));
    }
  }
  return false;
}

/**
 * The most GPUs a short job of rank `jobRank` could start on: free ones, and those of every run
 * it could preempt, on the standing totals (an upper bound: this pass's preemptions only lower
 * it); Infinity without them.
 */
function reachableGpus(pass: PassState, jobRank: number): number {
  const { loaded } = pass;
  const totals = loaded.preemptable;
  if (!totals) return Number.POSITIVE_INFINITY;
  const rankOfSlot = (slot: number): number => loaded.rankBySlot[slot]!;
  return pass.bounds.usableFreeGpus + preemptableGpus(totals, jobRank, rankOfSlot);
}

/** The reservation's nodes as short jobs see them: closed to them, or open and whose. */
type KeptNodes = {
  excluded: Uint8Array | undefined;
  keptFor: KeptFor | null;
  isKept: Uint8Array | null;
};

function keptNodes(pass: PassState, untilSec: number): KeptNodes {
  const reservation = reservedNodes(pass);
  if (reservation === null) return { excluded: undefined, keptFor: null, isKept: null };
  const { readyAtSec } = reservation;
  if (readyAtSec !== null && untilSec > readyAtSec) {
    return { excluded: reservation.isExcluded, keptFor: null, isKept: null };
  }
  const holder = pass.reservation!.holder;
  return {
    excluded: undefined,
    keptFor: { jobId: holder.id, budget: pass.budgetRef(holder.budgetId), readyAtSec },
    isKept: reservation.isExcluded,
  };
}

/**
 * The GPUs each position could offer a short job of `gpus` and rank `jobRank` (free ones and
 * those of the runs it may preempt, `roomAmong`), from the runs the standing totals count:
 * unallocated ones, and unprotected ones of budgets ranked below; and the positions whose room
 * could count. Null without standing totals.
 */
function shortVictimRoom(
  pass: PassState,
  gpus: number,
  jobRank: number,
): { gpus: number[]; positions: number[] } | null {
  const { loaded, pool } = pass;
  const totals = loaded.preemptable;
  if (!totals) return null;
  const groups: Set<LiveRun>[] = [totals.unallocatedRuns];
  const { runsBySlot } = totals;
  for (let slot = 0; slot < runsBySlot.length; slot += 1) {
    const runs = runsBySlot[slot];
    if (runs !== undefined && runs.size > 0 && loaded.rankBySlot[slot]! > jobRank)
      groups.push(runs);
  }
  const isOpen = (entry: LiveRun): boolean =>
    !entry.isGone && (!entry.isAllocated || (!entry.isProtectedNow && entry.rank > jobRank));
  const room = roomAmong(pool, groups, isOpen, pass.scratch.shortRoom);
  return { gpus: room, positions: positionsWithRoom(pool, gpus, room) };
}

/**
 * Starts a short job on free GPUs, else by preemption (see `sweepShortJobs`). Whether it could
 * start at all is asked first with every node open: reserved nodes only take options away, and
 * then they need not be chosen.
 */
function tryStartShort(
  pass: PassState,
  job: PendingJob,
  jobRank: number,
  keptOf: () => KeptNodes,
  isBeforeQueue: boolean,
): StartOutcome {
  const { pool, loaded, live, nowSec, holdings, nodeOfSlot } = pass;
  // Victims: runs loaded before the pass's starts, unallocated or unprotected and ranked below.
  const isAllowed = (index: number): boolean => {
    if (index >= loaded.loadedCount) return false;
    const entry = live[index]!;
    return !entry.isGone && (!entry.isAllocated || (!entry.isProtectedNow && entry.rank > jobRank));
  };
  // Whether victims could make room outside `excluded`: on the room of the runs the standing
  // totals count (read once, and then only the nodes with room), else on every run.
  let room: { gpus: number[]; positions: number[] } | null | undefined;
  const roomOf = () => (room ??= shortVictimRoom(pass, job.gpus, jobRank));
  const canPlan = (excluded?: Uint8Array): boolean => {
    const known = roomOf();
    return known
      ? hasRoomIn(pool, job.gpus, known.gpus, excluded, known.positions)
      : canMakeRoom(pool, job.gpus, live, loaded.heldByPosition, isAllowed, excluded);
  };
  const mayFitFree = mayPlace(pass, job.gpus) && placeJob(pool, job.gpus) !== null;
  if (!mayFitFree && !canPlan()) return "failed";
  const kept = keptOf();
  // The holder itself, a short job, is not kept waiting by its own reservation.
  const keptFor = (placement: NodeSlice[]): KeptFor | null =>
    kept.isKept?.[pool.positionOf.get(placement[0]!.node)!] === 1 && kept.keptFor!.jobId !== job.id
      ? kept.keptFor
      : null;
  const placement = mayPlace(pass, job.gpus) ? placeJob(pool, job.gpus, kept.excluded) : null;
  if (placement) {
    startJob(
      pass,
      job,
      true,
      placement,
      [],
      keptFor(placement),
      null,
      shortStart(false, isBeforeQueue),
    );
    return "started";
  }
  if (!canPlan(kept.excluded)) return "failed";
  // Only the nodes with room could serve: their victim lists alone are built and read.
  const positions = roomOf()?.positions;
  const plan = planPreemption(
    pool,
    job.gpus,
    live,
    loaded.victimsByPosition(positions),
    isAllowed,
    nowSec,
    kept.excluded,
    positions,
    pass.scratch.plan,
  );
  if (!plan) throw new Error("A plan failed where canMakeRoom found room.");
  // Whether the share guard would have kept one of the victims, asked before any ends.
  const jobNode = holdings.nodeIndexOf(job.budgetId);
  const isShielded = (entry: LiveRun): boolean =>
    entry.isAllocated &&
    !holdings.mayPreemptAt(jobNode, nodeOfSlot(entry.budgetSlot), job.gpus, entry.gpus);
  const isShareGuardWaived = plan.victims.some((index) => isShielded(live[index]!));
  return startInPlaceOf(
    pass,
    job,
    plan,
    keptFor(plan.placement),
    shortStart(isShareGuardWaived, isBeforeQueue),
  );
}
