import {
  growOptions,
  Readiness,
  zeroedBytes,
  type ReservationRequest,
  type ReservationScratch,
} from "./node-readiness";
import { RELEASE, wholeNodeRelease } from "./node-runs";
import { placementShape, type GpuPool } from "./placement";
import { sortSmall } from "./sort-small";

// The nodes kept for the first allocated job that cannot start (ADR 010), and what a pass asks
// of them before choosing them (`reservesOtherThan`, `surelyReserved`).

/** Nodes kept for the first allocated job that cannot start (ADR 010). */
export type Reservation = {
  /** 1 for reserved positions: later allocated jobs may not start or preempt there. */
  isExcluded: Uint8Array;
  /** Reserved node indices, ascending. */
  nodes: number[];
  /** When the reserved nodes are expected to hold the job, counting only protection ends;
   * null when it depends on runs of budgets ranked at or above the job (their end is unknown). */
  readyAtSec: number | null;
};

/**
 * Whether the healthy nodes could ever hold a job of `gpus` GPUs, that is whether
 * {@link reserveNodes} finds nodes for it: enough usable nodes of G GPUs for its whole nodes, and
 * one more usable node of at least its remainder. O(nodes); does not look at runs.
 *
 * @example canReserve(pool, 16, scratch) // false when fewer than two healthy 8-GPU nodes are left
 */
export function canReserve(pool: GpuPool, gpus: number, scratch: ReservationScratch): boolean {
  const shape = placementShape(gpus, pool.nodeSizeGpus);
  const usableAtLeast = usableNodesAtLeast(pool, scratch);
  // Nodes that could take the remainder; the whole nodes, of G GPUs, are among them.
  const remainderNodes = usableAtLeast[shape.remainderGpus]!;
  if (usableAtLeast[pool.nodeSizeGpus]! < shape.wholeNodes) return false;
  return shape.remainderGpus === 0 || remainderNodes > shape.wholeNodes;
}

/**
 * The healthy nodes of the pool's full size (G GPUs), counted once per `isUsable` array and kept
 * in `scratch` as `canReserve` keeps them.
 *
 * @example fullSizeUsableNodes(pool, scratch) // 40
 */
export function fullSizeUsableNodes(pool: GpuPool, scratch: ReservationScratch): number {
  return usableNodesAtLeast(pool, scratch)[pool.nodeSizeGpus]!;
}

/**
 * Usable nodes of at least g GPUs, at index g (0..G), kept for the `isUsable` array (and the
 * capacities) they were counted with: a pass's pool shares it with the passes before it while
 * the nodes stay as they were, and nothing writes it once made (`GpuPool`).
 */
function usableNodesAtLeast(pool: GpuPool, scratch: ReservationScratch): Int32Array {
  const kept = scratch.usableCounts;
  if (
    kept?.isUsable === pool.isUsable &&
    kept.capacity === pool.capacity &&
    kept.atLeast.length === pool.nodeSizeGpus + 1
  ) {
    return kept.atLeast;
  }
  const atLeast = new Int32Array(pool.nodeSizeGpus + 1);
  for (let position = 0; position < pool.free.length; position += 1) {
    const gpus = pool.capacity[position]!;
    if (pool.isUsable[position]) atLeast[gpus] = atLeast[gpus]! + 1;
  }
  for (let gpus = pool.nodeSizeGpus - 1; gpus >= 0; gpus -= 1) {
    atLeast[gpus] = atLeast[gpus]! + atLeast[gpus + 1]!;
  }
  scratch.usableCounts = { isUsable: pool.isUsable, capacity: pool.capacity, atLeast };
  return atLeast;
}

/**
 * Reserves the nodes on which a job of `gpus` GPUs and rank `jobRank` can start soonest: per node
 * the time at which free GPUs plus released runs reach the need (a whole node for gang jobs),
 * then the earliest nodes (ties: lowest node). Returns null if the healthy nodes can never hold
 * the job. Deterministic; does not change the pool.
 *
 * @example reserveNodes({ pool, gpus: 16, jobRank: 3, runs, heldByPosition, nowSec: 0 })?.nodes // e.g. [4, 5]
 */
export function reserveNodes(request: ReservationRequest): Reservation | null {
  const { pool, gpus, nowSec, scratch } = request;
  if (!canReserve(pool, gpus, scratch)) return null;
  const shape = placementShape(gpus, pool.nodeSizeGpus);
  const nodeCount = pool.free.length;
  // The chosen nodes (indices) and the latest of their ready times.
  const nodes: number[] = [];
  let latestSec = Number.NEGATIVE_INFINITY;
  const isExcluded = zeroedBytes(scratch, nodeCount);
  const choose = (position: number, atSec: number): void => {
    nodes.push(pool.indexOf[position]!);
    if (atSec > latestSec) latestSec = atSec;
    isExcluded[position] = 1;
  };
  if (shape.wholeNodes > 0) {
    const options = scanWholeNodes(request, shape.wholeNodes);
    if (options < shape.wholeNodes) return null;
    for (const at of spareFreeNodes(pool, scratch, options, shape.wholeNodes, nowSec)) {
      choose(scratch.optionPositions[at]!, scratch.optionAtSecs[at]!);
    }
  }
  if (shape.remainderGpus > 0) {
    // The scan's release times, when there was one, serve here too.
    const readiness =
      scratch.scannedRequest === request && scratch.scannedReadiness
        ? scratch.scannedReadiness
        : new Readiness(request);
    let bestPosition = -1;
    let bestAtSec = Number.POSITIVE_INFINITY;
    // Nothing is ready before now: a node ready now is the earliest.
    for (let position = 0; position < nodeCount && bestAtSec !== nowSec; position += 1) {
      if (!pool.isUsable[position] || isExcluded[position]) continue;
      if (pool.capacity[position]! < shape.remainderGpus) continue;
      const atSec = readiness.readyAt(position, shape.remainderGpus, bestAtSec);
      if (bestPosition < 0 || atSec < bestAtSec) {
        bestPosition = position;
        bestAtSec = atSec;
      }
    }
    if (bestPosition < 0) return null;
    choose(bestPosition, bestAtSec);
  }
  return {
    isExcluded,
    nodes: sortSmall(nodes, ascending),
    readyAtSec: Number.isFinite(latestSec) ? latestSec : null,
  };
}

const ascending = (a: number, b: number): number => a - b;

/**
 * A gang job's options for its whole nodes: the full-size usable nodes in ascending position,
 * each with the time it can hold a whole node of the job, written to the first entries of
 * `scratch.optionPositions` and `scratch.optionAtSecs`, up to the point where `wholeNodes` of them are ready now
 * (no later node comes before those: ties go to the lowest). Gives how many. Read by
 * `surelyReserved` and `reserveNodes` alike: the lists are written again only for another
 * request, as the same request stands for the same state.
 */
function scanWholeNodes(request: ReservationRequest, wholeNodes: number): number {
  const { pool, nowSec, jobRank, nodeRuns, scratch } = request;
  if (scratch.scannedRequest === request) return scratch.scannedOptions;
  const size = pool.nodeSizeGpus;
  const readiness = new Readiness(request);
  let options = 0;
  let readyNow = 0;
  for (let position = 0; position < pool.free.length && readyNow < wholeNodes; position += 1) {
    if (!pool.isUsable[position] || pool.capacity[position] !== size) continue;
    // `readyAt` of a whole node, its first steps written out here: most nodes need no more, and
    // a call that returns Infinity has it boxed (ADR 022; 230 MB of the fleet's 20 days when this
    // loop called one `wholeNodeReadyAt`).
    const release =
      pool.free[position]! >= size
        ? RELEASE.now
        : nodeRuns
          ? wholeNodeRelease(nodeRuns, position, jobRank, nowSec)
          : RELEASE.unknown;
    let atSec: number;
    if (release === RELEASE.now) atSec = nowSec;
    else if (release === RELEASE.never) atSec = Number.POSITIVE_INFINITY;
    else if (release === RELEASE.atProtectionEnd) atSec = nodeRuns!.maxProtectedUntilSec[position]!;
    // (`readyAt` asks the sums again, and reads the runs.)
    else atSec = readiness.readyAt(position, size, Number.POSITIVE_INFINITY);
    if (options === scratch.optionAtSecs.length) growOptions(scratch);
    if (atSec === nowSec) {
      scratch.readyNowPositions[readyNow] = position;
      readyNow += 1;
    }
    scratch.optionPositions[options] = position;
    scratch.optionAtSecs[options] = atSec;
    options += 1;
  }
  scratch.scannedRequest = request;
  scratch.scannedOptions = options;
  scratch.scannedReadyNow = readyNow;
  scratch.scannedReadiness = readiness;
  return options;
}

/**
 * For a job of at most one node's GPUs, whether {@link reserveNodes} would reserve a node other
 * than `position` (or none), found without choosing that node: `position`'s ready time, then the
 * first node ready before it (by it, for a lower node: ties go to the lowest). When `position`
 * is the one, gives the reservation `reserveNodes` would. O(runs on the nodes read).
 *
 * @example reservesOtherThan({ pool, gpus: 4, jobRank: 2, runs, heldByPosition, nowSec: 0 }, 3).isOutside
 */
export function reservesOtherThan(
  request: ReservationRequest,
  position: number,
): { isOutside: true } | { isOutside: false; reservation: Reservation } {
  const { pool, gpus, scratch } = request;
  const shape = placementShape(gpus, pool.nodeSizeGpus);
  if (shape.wholeNodes > 0) throw new RangeError("reservesOtherThan is for one-node jobs.");
  const need = shape.remainderGpus;
  const isCandidate = (at: number): boolean =>
    pool.isUsable[at] === 1 && pool.capacity[at]! >= need;
  if (!canReserve(pool, gpus, scratch) || !isCandidate(position)) return { isOutside: true };
  const readiness = new Readiness(request);
  const atSec = readiness.readyAt(position, need, Number.POSITIVE_INFINITY);
  for (let other = 0; other < pool.free.length; other += 1) {
    if (other === position || !isCandidate(other)) continue;
    if (readiness.isReadyBy(other, need, atSec, other < position)) return { isOutside: true };
  }
  const isExcluded = zeroedBytes(scratch, pool.free.length);
  isExcluded[position] = 1;
  return {
    isOutside: false,
    reservation: {
      isExcluded,
      nodes: [pool.indexOf[position]!],
      readyAtSec: Number.isFinite(atSec) ? atSec : null,
    },
  };
}

/**
 * Positions {@link reserveNodes} surely reserves for a gang job of `gpus` GPUs (more than a
 * node's), found without choosing them all: when as many full-size usable nodes as its whole
 * nodes are ready now, the lowest of those (the whole nodes go to the earliest, ties to the
 * lowest). 1 for such a position; null for a one-node job, one the healthy nodes can never hold,
 * or one with fewer nodes ready now (it then spares free nodes, ADR 092, so none is sure).
 * O(runs on the nodes read).
 *
 * @param into written over and given back when of the pool's length (a caller asking often
 *   spares making one each time); else a new array is
 * @example surelyReserved({ pool, gpus: 16, jobRank: 2, runs, heldByPosition, nowSec: 0 })?.[3] // 1 if reserved
 */
export function surelyReserved(request: ReservationRequest, into?: Uint8Array): Uint8Array | null {
  const { pool, gpus, scratch } = request;
  const { wholeNodes } = placementShape(gpus, pool.nodeSizeGpus);
  if (wholeNodes === 0 || !canReserve(pool, gpus, scratch)) return null;
  scanWholeNodes(request, wholeNodes);
  const { scannedReadyNow, readyNowPositions } = scratch;
  // Fewer nodes ready now than it needs: the reservation spares free nodes (`spareFreeNodes`), so
  // none is surely taken.
  if (scannedReadyNow < wholeNodes) return null;
  const isReserved =
    into?.length === pool.free.length ? into.fill(0) : new Uint8Array(pool.free.length);
  // A whole node is ready now when every run on it is released now: the scan listed those.
  for (let i = 0; i < scannedReadyNow; i += 1) isReserved[readyNowPositions[i]!] = 1;
  return isReserved;
}

/**
 * The `count` options a gang job's whole nodes take (ADR 092, "spare free nodes"): the earliest
 * (`earliestOptions`), unless they are ready only later than now; then every option ready by the
 * latest of them, the fewest free GPUs first (ties: lowest position). The job is ready no later,
 * and free nodes it does not need stay free for other work meanwhile: an idle node kept for hours
 * helps no one. Indices into the scan's lists, in no particular order.
 */
function spareFreeNodes(
  pool: GpuPool,
  scratch: ReservationScratch,
  options: number,
  count: number,
  nowSec: number,
): number[] {
  const { optionAtSecs, optionPositions } = scratch;
  const earliest = earliestOptions(optionAtSecs, options, count, scratch.keptAt);
  const latestSec = optionAtSecs[earliest[count - 1]!]!;
  if (!Number.isFinite(latestSec) || latestSec <= nowSec) return earliest;
  const readyBy: number[] = [];
  for (let i = 0; i < options; i += 1) if (optionAtSecs[i]! <= latestSec) readyBy.push(i);
  const freeAt = (i: number): number => pool.free[optionPositions[i]!]!;
  readyBy.sort((a, b) => freeAt(a) - freeAt(b) || optionPositions[a]! - optionPositions[b]!);
  return readyBy.slice(0, count);
}

/**
 * The indices of the `count` earliest of the first `length` times (ties: lowest index), earliest
 * first: one pass in index order keeps the earliest so far, sorted, and a time enters only if it
 * is before the last kept (a later index loses a tie). Most times are not, so each costs one
 * comparison. Does not reorder `atSecs`.
 */
function earliestOptions(
  atSecs: Float64Array,
  length: number,
  count: number,
  keptAt: number[],
): number[] {
  const chosen: number[] = [];
  for (let i = 0; i < length; i += 1) {
    const atSec = atSecs[i]!;
    if (chosen.length === count && atSec >= keptAt[count - 1]!) continue;
    let at = chosen.length < count ? chosen.length : count - 1;
    while (at > 0 && keptAt[at - 1]! > atSec) {
      keptAt[at] = keptAt[at - 1]!;
      chosen[at] = chosen[at - 1]!;
      at -= 1;
    }
    keptAt[at] = atSec;
    chosen[at] = i;
  }
  return chosen;
}
