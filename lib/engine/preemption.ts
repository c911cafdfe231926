import { preemptionOutcome } from "./contract";
import { placementShape, type GpuPool } from "./placement";
import type { BudgetRef, Parting, PreemptReason } from "./reasons";
import type { ActiveRun, NodeSlice } from "./types";

/** A running run as victim selection sees it. */
export type VictimCandidate = {
  id: string;
  isAllocated: boolean;
  /** Leaf rank of its budget (1 = first). */
  rank: number;
  startSec: number;
  gpus: number;
  /** GPUs per pool position. */
  slices: { position: number; gpus: number }[];
};

/** A candidate's GPUs on one node: the entries of `runsByPosition`. */
export type VictimSlot = { candidate: number; gpus: number };

/** Victims (indices into the candidate list, preference order) and where the job then goes. */
export type PreemptionPlan = { victims: number[]; placement: NodeSlice[] };

type VictimSetCost = {
  hasAllocated: boolean;
  /** Best (smallest) rank among allocated victims; Infinity when there are none. */
  bestAllocatedRank: number;
  lostGpuSeconds: number;
  freedGpus: number;
  position: number;
};

/**
 * Preference between two victims (docs/ranking.md): unallocated first, then the lowest-ranked
 * budget (largest rank number), then the latest start (least progress), then id.
 *
 * @example compareVictims(unallocatedRun, allocatedRun) // < 0
 */
export function compareVictims(a: VictimCandidate, b: VictimCandidate): number {
  if (a.isAllocated !== b.isAllocated) return a.isAllocated ? 1 : -1;
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (a.startSec !== b.startSec) return b.startSec - a.startSec;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function compareCosts(a: VictimSetCost, b: VictimSetCost): number {
  return compareCostsOnly(a, b) || a.position - b.position;
}

function compareCostsOnly(a: VictimSetCost, b: VictimSetCost): number {
  if (a.hasAllocated !== b.hasAllocated) return a.hasAllocated ? 1 : -1;
  if (a.bestAllocatedRank !== b.bestAllocatedRank) {
    return a.bestAllocatedRank > b.bestAllocatedRank ? -1 : 1;
  }
  if (a.lostGpuSeconds !== b.lostGpuSeconds) return a.lostGpuSeconds - b.lostGpuSeconds;
  return a.freedGpus - b.freedGpus;
}

/**
 * Working arrays of `planPreemption`, reused from plan to plan (plans never run inside one
 * another, and none keeps them past its return), so that a plan allocates no typed array: V8
 * makes most of them outside its heap, at a cost that showed in profiles. Each call gives the
 * first `length` entries zeroed (or a copy of `free`); entries past them are left as they were.
 */
export type PlanScratch = {
  taken(length: number): Uint8Array;
  chosen(length: number): Uint8Array;
  freeAfter(free: Int32Array): Int32Array;
};

/**
 * Empty working arrays for `planPreemption` (`PlanScratch`): a pass keeps one for its plans.
 *
 * @example planPreemption(pool, 8, candidates, runsByPosition, isAllowed, 3600, undefined, undefined, createPlanScratch())
 */
export function createPlanScratch(): PlanScratch {
  let taken = new Uint8Array(0);
  let chosen = new Uint8Array(0);
  let freeAfter = new Int32Array(0);
  const grown = (length: number, current: number): number => Math.max(length, 2 * current);
  return {
    taken(length: number): Uint8Array {
      if (taken.length < length) taken = new Uint8Array(grown(length, taken.length));
      return taken.fill(0, 0, length);
    },
    chosen(length: number): Uint8Array {
      if (chosen.length < length) chosen = new Uint8Array(grown(length, chosen.length));
      return chosen.fill(0, 0, length);
    },
    freeAfter(free: Int32Array): Int32Array {
      if (freeAfter.length < free.length) {
        freeAfter = new Int32Array(grown(free.length, freeAfter.length));
      }
      freeAfter.set(free);
      return freeAfter;
    },
  };
}

/**
 * Chooses runs to preempt so that a job of `gpus` GPUs can be placed, or returns null when even
 * every allowed preemption would not make room (then nothing is preempted).
 *
 * `runsByPosition[p]` lists candidates on position p (with their GPUs there) in `compareVictims` order;
 * `isAllowed(i)` says whether this job may preempt candidate i (unallocated, or unprotected and
 * of a budget ranked strictly below the job's). On each node victims are taken in preference
 * order until the job fits; among nodes the cheapest victim set wins: no allocated victim
 * first, then the worst-ranked best victim, then the fewest GPU-seconds of progress lost, then
 * the fewest GPUs freed, then the lowest node. Gang jobs clear the cheapest whole nodes.
 * `planScratch`: working arrays to reuse (a pass's own); new ones when not given.
 *
 * @example
 * planPreemption(pool, 8, candidates, runsByPosition, (i) => !candidates[i].isAllocated, 3600)
 */
export function planPreemption(
  pool: GpuPool,
  gpus: number,
  candidates: readonly VictimCandidate[],
  runsByPosition: readonly (readonly VictimSlot[])[],
  isAllowed: (candidate: number) => boolean,
  nowSec: number,
  isExcluded?: Uint8Array,
  positions?: readonly number[],
  planScratch: PlanScratch = createPlanScratch(),
): PreemptionPlan | null {
  const shape = placementShape(gpus, pool.nodeSizeGpus);
  const nodeCount = pool.free.length;
  // The positions that may serve, ascending: every one unless the caller narrowed them.
  const candidatePositions = positions ?? Array.from({ length: nodeCount }, (_, i) => i);
  // Victims chosen and GPUs free after them, in the shared scratch arrays from the first choice
  // on (most plans fail before any); positions taken by the plan.
  let chosen: Uint8Array | null = null;
  let freeAfter: Int32Array = pool.free;
  const slices: NodeSlice[] = [];
  const taken = planScratch.taken(nodeCount);

  // Cost of the victims needed on one node to reach `need` free GPUs, given victims already
  // chosen; null if the node cannot get there. Victim ids go to `ids` when it is given.
  const victimsOn = (position: number, need: number, ids?: number[]): VictimSetCost | null => {
    let have = freeAfter[position]!;
    if (have >= need) {
      return {
        hasAllocated: false,
        bestAllocatedRank: Infinity,
        lostGpuSeconds: 0,
        freedGpus: 0,
        position,
      };
    }
    let hasAllocated = false;
    let bestAllocatedRank = Number.POSITIVE_INFINITY;
    let lostGpuSeconds = 0;
    let freedGpus = 0;
    for (const slot of runsByPosition[position] ?? []) {
      const index = slot.candidate;
      if (chosen?.[index] === 1 || !isAllowed(index)) continue;
      const run = candidates[index]!;
      have += slot.gpus;
      ids?.push(index);
      freedGpus += run.gpus;
      lostGpuSeconds += run.gpus * Math.max(0, nowSec - run.startSec);
      if (run.isAllocated) {
        hasAllocated = true;
        if (run.rank < bestAllocatedRank) bestAllocatedRank = run.rank;
      }
      if (have >= need) {
        return { hasAllocated, bestAllocatedRank, lostGpuSeconds, freedGpus, position };
      }
    }
    return null;
  };
  const choose = (position: number, need: number): void => {
    const ids: number[] = [];
    victimsOn(position, need, ids);
    taken[position] = 1;
    if (!chosen) {
      chosen = planScratch.chosen(candidates.length);
      freeAfter = planScratch.freeAfter(pool.free);
    }
    for (const index of ids) {
      chosen[index] = 1;
      for (const slice of candidates[index]!.slices) {
        freeAfter[slice.position] = freeAfter[slice.position]! + slice.gpus;
      }
    }
  };
  const isOpen = (position: number): boolean =>
    pool.isUsable[position] === 1 && !isExcluded?.[position] && !taken[position];

  if (shape.wholeNodes > 0) {
    const size = pool.nodeSizeGpus;
    const options: VictimSetCost[] = [];
    for (const position of candidatePositions) {
      if (!isOpen(position) || pool.capacity[position] !== size) continue;
      const cost = victimsOn(position, size);
      if (cost) options.push(cost);
    }
    if (options.length < shape.wholeNodes) return null;
    options.sort(compareCosts);
    for (const option of options.slice(0, shape.wholeNodes)) {
      choose(option.position, size);
      slices.push({ node: pool.indexOf[option.position]!, gpus: size });
    }
  }
  if (shape.remainderGpus > 0) {
    let best: VictimSetCost | null = null;
    for (const position of candidatePositions) {
      if (!isOpen(position)) continue;
      const cost = victimsOn(position, shape.remainderGpus);
      if (!cost) continue;
      // Among equally cheap nodes prefer the tightest fit, as placement does.
      const order = best ? compareCostsOnly(cost, best) : -1;
      if (order < 0 || (order === 0 && freeAfter[position]! < freeAfter[best!.position]!)) {
        best = cost;
      }
    }
    if (!best) return null;
    choose(best.position, shape.remainderGpus);
    slices.push({ node: pool.indexOf[best.position]!, gpus: shape.remainderGpus });
  }
  slices.sort((a, b) => a.node - b.node);
  const victims: number[] = [];
  const isChosen = chosen as Uint8Array | null;
  for (let index = 0; isChosen && index < candidates.length; index += 1) {
    if (isChosen[index]) victims.push(index);
  }
  victims.sort((a, b) => compareVictims(candidates[a]!, candidates[b]!));
  return { victims, placement: slices };
}

/**
 * Whether `planPreemption` could find room for a job of `gpus` GPUs outside `isExcluded`: a
 * healthy node whose free GPUs plus those of the runs it may preempt there reach the job (whole
 * nodes of G for a gang job, and one more node for its remainder). The same answer as
 * `planPreemption` on victim lists of the allowed candidates (property-tested), cheaper: no list
 * is sorted.
 *
 * @param heldByPosition candidates (indices) holding GPUs on each pool position
 * @example canMakeRoom(pool, 8, candidates, heldByPosition, (i) => !candidates[i].isAllocated)
 */
export function canMakeRoom(
  pool: GpuPool,
  gpus: number,
  candidates: readonly VictimCandidate[],
  heldByPosition: readonly (readonly number[])[],
  isAllowed: (candidate: number) => boolean,
  isExcluded?: Uint8Array,
): boolean {
  const roomAt = (position: number): number => {
    let room = pool.free[position]!;
    for (const index of heldByPosition[position]!) {
      if (!isAllowed(index)) continue;
      for (const slice of candidates[index]!.slices) {
        if (slice.position === position) {
          room += slice.gpus;
          break;
        }
      }
    }
    return room;
  };
  return hasRoom(pool, gpus, roomAt, isExcluded);
}

/**
 * {@link canMakeRoom} reading only the candidates in `victimGroups`: the same answer when every
 * candidate it would allow is among them, cheaper when few are (the share guard often shields
 * the runs of most budgets, which then need not be read). A pass that asks more than once uses
 * its two parts, {@link roomAmong} once and {@link hasRoomIn} per question.
 *
 * @example canMakeRoomAmong(pool, 8, [unallocatedRuns], (run) => !run.isGone)
 */
export function canMakeRoomAmong<Victim extends VictimCandidate>(
  pool: GpuPool,
  gpus: number,
  victimGroups: readonly Iterable<Victim>[],
  isAllowed: (victim: Victim) => boolean,
  isExcluded?: Uint8Array,
): boolean {
  return hasRoomIn(pool, gpus, roomAmong(pool, victimGroups, isAllowed), isExcluded);
}

/**
 * The GPUs each position could offer: free ones plus those of the allowed candidates in
 * `victimGroups` (see {@link canMakeRoomAmong}), by position. Written into `into` when given (a
 * caller's reused list, its first entries overwritten), else into a new list.
 *
 * @example hasRoomIn(pool, 8, roomAmong(pool, [unallocatedRuns], (run) => !run.isGone))
 */
export function roomAmong<Victim extends VictimCandidate>(
  pool: GpuPool,
  victimGroups: readonly Iterable<Victim>[],
  isAllowed: (victim: Victim) => boolean,
  into?: number[],
): number[] {
  const room = into ?? new Array<number>(pool.free.length);
  for (let position = 0; position < pool.free.length; position += 1) {
    room[position] = pool.free[position]!;
  }
  addRoomOf(room, victimGroups, isAllowed);
  return room;
}

/**
 * Adds to `room` (by position, as {@link roomAmong} gives it) the GPUs of the allowed candidates
 * in `victimGroups`, for groups screened with another test than the first ones.
 *
 * @example addRoomOf(roomAmong(pool, [unallocatedRuns], isFree), [runsOfSomeBudget], isAllowed)
 */
export function addRoomOf<Victim extends VictimCandidate>(
  room: number[],
  victimGroups: readonly Iterable<Victim>[],
  isAllowed: (victim: Victim) => boolean,
): void {
  for (const victims of victimGroups) {
    for (const victim of victims) {
      if (!isAllowed(victim)) continue;
      for (const slice of victim.slices) {
        room[slice.position] = room[slice.position]! + slice.gpus;
      }
    }
  }
}

/**
 * Whether the GPUs `room` gives per position fit a job of `gpus` (see {@link canMakeRoom}).
 * `positions`, when given, are the only ones that may count (`positionsWithRoom` for the same
 * job and room): a job asked about several times reads them instead of every node.
 */
export function hasRoomIn(
  pool: GpuPool,
  gpus: number,
  room: readonly number[],
  isExcluded?: Uint8Array,
  positions?: readonly number[],
): boolean {
  return hasRoom(pool, gpus, (position) => room[position]!, isExcluded, positions);
}

/**
 * The usable positions, ascending, whose room could count for a job of `gpus` in
 * {@link hasRoomIn}: room for the whole job (one-node jobs), or for a whole node or the
 * remainder (gang jobs).
 */
export function positionsWithRoom(pool: GpuPool, gpus: number, room: readonly number[]): number[] {
  const shape = placementShape(gpus, pool.nodeSizeGpus);
  const positions: number[] = [];
  // The least room that could count: on a busy cluster most nodes have less, tested first.
  const leastGpus = shape.wholeNodes === 0 ? gpus : shape.remainderGpus || pool.nodeSizeGpus;
  for (let position = 0; position < pool.free.length; position += 1) {
    const gpusThere = room[position]!;
    if (gpusThere < leastGpus || !pool.isUsable[position]) continue;
    const counts =
      shape.wholeNodes === 0
        ? gpusThere >= gpus
        : (pool.capacity[position] === pool.nodeSizeGpus && gpusThere >= pool.nodeSizeGpus) ||
          (shape.remainderGpus > 0 && gpusThere >= shape.remainderGpus);
    if (counts) positions.push(position);
  }
  return positions;
}

/**
 * Whether the GPUs a position could offer (`roomAt`: free plus what preemption frees) fit a job
 * of `gpus` on healthy positions outside `isExcluded`: one node for a small job (the first
 * found ends the search); for a gang job, whole nodes of G for its whole part and one more node
 * for its remainder.
 */
function hasRoom(
  pool: GpuPool,
  gpus: number,
  roomAt: (position: number) => number,
  isExcluded?: Uint8Array,
  positions?: readonly number[],
): boolean {
  const shape = placementShape(gpus, pool.nodeSizeGpus);
  let wholeNodes = 0;
  let remainderNodes = 0;
  const count = positions ? positions.length : pool.free.length;
  for (let at = 0; at < count; at += 1) {
    const position = positions ? positions[at]! : at;
    if (!pool.isUsable[position] || isExcluded?.[position]) continue;
    const gpusThere = roomAt(position);
    if (shape.wholeNodes === 0) {
      if (gpusThere >= gpus) return true;
      continue;
    }
    if (pool.capacity[position] === pool.nodeSizeGpus && gpusThere >= pool.nodeSizeGpus) {
      wholeNodes += 1;
    }
    if (shape.remainderGpus > 0 && gpusThere >= shape.remainderGpus) remainderNodes += 1;
  }
  if (shape.wholeNodes === 0) return false;
  return (
    wholeNodes >= shape.wholeNodes &&
    (shape.remainderGpus === 0 || remainderNodes > shape.wholeNodes)
  );
}

/**
 * The reason for preempting `run` so that an allocated job can start: `preempt-for-rank` for an
 * allocated victim (its budget ranks below the preemptor's), `preempt-unallocated` otherwise.
 *
 * `parting` names the comparison that decided (see `findParting`).
 *
 * @example rankPreemptionReason(run, { jobId: "j1", budget, gpus: 8 }, victimRef, 3600).rule
 */
export function rankPreemptionReason(
  run: ActiveRun,
  preemptor: { jobId: string; budget: BudgetRef; gpus: number },
  victim: BudgetRef,
  nowSec: number,
  parting: Parting | null = null,
): PreemptReason {
  const outcome = preemptionOutcome(run.isResumable);
  return run.isAllocated
    ? {
        rule: "preempt-for-rank",
        atSec: nowSec,
        victim,
        victimStartSec: run.startSec,
        protectedUntilSec: run.protectedUntilSec,
        preemptor,
        parting,
        outcome,
      }
    : {
        rule: "preempt-unallocated",
        atSec: nowSec,
        victim,
        victimStartSec: run.startSec,
        preemptor,
        outcome,
      };
}
