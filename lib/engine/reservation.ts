import {
  RELEASE,
  wholeNodeRelease,
  wholeNodeReleaseAt,
  type HeldRun,
  type NodeRuns,
} from "./node-runs";
import { placementShape, type GpuPool } from "./placement";
import { sortSmall } from "./sort-small";

/**
 * What a reservation is worked out from: the job's size and rank, the nodes, the runs holding
 * GPUs on them, and the moment. The same object stands for the same state: `reserveNodes` and
 * `surelyReserved` asked of it share what they work out; a changed state needs a new request.
 */
export type ReservationRequest = {
  pool: GpuPool;
  /** The job's GPUs. */
  gpus: number;
  jobRank: number;
  runs: readonly HeldRun[];
  /**
   * Runs (indices into `runs`) holding GPUs on each position: with the free GPUs there, the GPUs
   * of those not gone make the position's capacity (as the engine's pool and runs always do).
   */
  heldByPosition: readonly (readonly number[])[];
  nowSec: number;
  /** Whether the share guard keeps the job from preempting run `index`; default never. */
  isShielded?: (index: number) => boolean;
  /**
   * The standing runs' summary per position, when `runs` and `heldByPosition` are the entries it
   * sums up (a pass on standing runs): whole nodes are read from it where it can tell.
   */
  nodeRuns?: NodeRuns;
  /** The pass's working memory for reservations (`createReservationScratch`). */
  scratch: ReservationScratch;
};

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
 * When a run stops standing in the way of a job of rank `jobRank`: now if it may be preempted
 * (unallocated, or unprotected and ranked below), at the end of its protection if it is
 * protected and ranked below, never (Infinity) if its budget ranks at or above the job's or the
 * share guard shields it (`isShielded`: its budget holds no more than its share, ADR 011).
 * A protected run is assumed preemptable once its protection ends.
 *
 * @example releaseAtSec({ isAllocated: true, rank: 5, protectedUntilSec: 900, slices: [] }, 2, 0) // 900
 */
export function releaseAtSec(
  run: HeldRun,
  jobRank: number,
  nowSec: number,
  isShielded = false,
): number {
  if (!run.isAllocated) return nowSec;
  if (run.rank <= jobRank) return Number.POSITIVE_INFINITY;
  if (run.protectedUntilSec <= nowSec && isShielded) return Number.POSITIVE_INFINITY;
  return Math.max(nowSec, run.protectedUntilSec);
}

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
 * The working memory of reservations, reused from one to the next so that most allocate
 * nothing (internal): one per pass, or one an `IncrementalScheduler` keeps for all its passes
 * (passes never run inside one another). See `createReservationScratch`.
 */
export type ReservationScratch = {
  /** `usableNodesAtLeast` of the last pool asked, with the arrays it was counted from. */
  usableCounts: { isUsable: Uint8Array; capacity: Int32Array; atLeast: Int32Array } | null;
  /**
   * Zeroed bytes for reservations' `isExcluded`, cut one after another from a buffer and never
   * handed out twice (a reservation may outlive its pass). A typed array with a buffer of its
   * own costs a native allocation each, as V8 keeps only those of up to 64 bytes on its heap; a
   * pass may make one or two.
   */
  bytesSlab: ArrayBuffer;
  bytesSlabUsed: number;
  /**
   * Release times of runs on several nodes, computed once per readiness and met once per node:
   * by run index, valid where `releaseStamps` holds the readiness's own stamp. Shared by every
   * readiness (most passes make a few), so none allocates its own; a readiness reads only
   * entries it wrote, so one used after another was made only computes again.
   */
  releaseStamps: Float64Array;
  releaseTimes: Float64Array;
  lastStamp: number;
  /** The releases on one node before a cutoff, sorted, while `readyAt` reads them. */
  releaseAt: number[];
  releaseGpus: number[];
  /** A gang job's options while `reserveNodes` chooses among them (not reentrant). */
  optionPositions: Int32Array;
  optionAtSecs: Float64Array;
  /** The times of the options `earliestOptions` keeps so far, earliest first. */
  keptAt: number[];
  /** The request whose options the lists hold (`scanWholeNodes`), how many, and its readiness. */
  scannedRequest: ReservationRequest | null;
  scannedOptions: number;
  /** The positions of the scan's options that are ready now, in scan order, and how many. */
  readyNowPositions: Int32Array;
  scannedReadyNow: number;
  scannedReadiness: Readiness | null;
};

/**
 * Empty working memory for reservations (`ReservationScratch`).
 *
 * @example reserveNodes({ pool, gpus: 16, jobRank: 1, runs, heldByPosition, nowSec, scratch: createReservationScratch() })
 */
export function createReservationScratch(): ReservationScratch {
  return {
    usableCounts: null,
    bytesSlab: new ArrayBuffer(0),
    bytesSlabUsed: 0,
    releaseStamps: new Float64Array(0),
    releaseTimes: new Float64Array(0),
    lastStamp: 0,
    releaseAt: [],
    releaseGpus: [],
    optionPositions: new Int32Array(64),
    optionAtSecs: new Float64Array(64),
    keptAt: [],
    scannedRequest: null,
    scannedOptions: 0,
    readyNowPositions: new Int32Array(64),
    scannedReadyNow: 0,
    scannedReadiness: null,
  };
}

const BYTES_SLAB_SIZE = 64 * 1024;

function zeroedBytes(scratch: ReservationScratch, length: number): Uint8Array {
  if (scratch.bytesSlabUsed + length > scratch.bytesSlab.byteLength) {
    scratch.bytesSlab = new ArrayBuffer(Math.max(length, BYTES_SLAB_SIZE));
    scratch.bytesSlabUsed = 0;
  }
  const bytes = new Uint8Array(scratch.bytesSlab, scratch.bytesSlabUsed, length);
  scratch.bytesSlabUsed += length;
  return bytes;
}

/** Doubles the option lists and `readyNowPositions` (never longer than the options), as filled. */
function growOptions(scratch: ReservationScratch): void {
  const length = scratch.optionPositions.length * 2;
  const positions = new Int32Array(length);
  const atSecs = new Float64Array(length);
  const readyNow = new Int32Array(length);
  positions.set(scratch.optionPositions);
  atSecs.set(scratch.optionAtSecs);
  readyNow.set(scratch.readyNowPositions);
  scratch.optionPositions = positions;
  scratch.optionAtSecs = atSecs;
  scratch.readyNowPositions = readyNow;
}

/**
 * Lets go of the request the lists were last written for (and through it of the runs and the
 * pass it came from): called when a pass ends, so that nothing of it outlives the pass.
 *
 * @example forgetWholeNodeScan(scratch)
 */
export function forgetWholeNodeScan(scratch: ReservationScratch): void {
  scratch.scannedRequest = null;
  scratch.scannedReadiness = null;
}

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
 * When nodes can hold a job of rank `jobRank`, from the runs on them (see `reserveNodes`). A
 * class, so that the many made in a replay share their methods instead of making closures.
 */
class Readiness {
  readonly #request: ReservationRequest;
  readonly #stamp: number;

  constructor(request: ReservationRequest) {
    this.#request = request;
    const { length } = request.runs;
    const { scratch } = request;
    if (scratch.releaseStamps.length < length) {
      const size = Math.max(length, 2 * scratch.releaseStamps.length, 64);
      scratch.releaseStamps = new Float64Array(size);
      scratch.releaseTimes = new Float64Array(size);
    }
    scratch.lastStamp += 1;
    this.#stamp = scratch.lastStamp;
  }

  /** When `position` has `need` GPUs, counting releases; `cutoffSec` when that is not before it. */
  readyAt(position: number, need: number, cutoffSec: number): number {
    const { pool, runs, heldByPosition, nowSec } = this.#request;
    let have = pool.free[position]!;
    if (have >= need) return nowSec;
    const held = heldByPosition[position] ?? [];
    if (need === pool.capacity[position]) {
      const { nodeRuns, jobRank } = this.#request;
      const release = nodeRuns
        ? wholeNodeRelease(nodeRuns, position, jobRank, nowSec)
        : RELEASE.unknown;
      if (release !== RELEASE.unknown) {
        return wholeNodeReleaseAt(nodeRuns!, release, position, nowSec, cutoffSec);
      }
      return this.#wholeNodeReadyAt(held, cutoffSec);
    }
    const { releaseAt: scratchAt, releaseGpus: scratchGpus } = this.#request.scratch;
    let count = 0;
    let releasedBeforeCutoff = 0;
    for (const index of held) {
      const run = runs[index]!;
      if (run.isGone) continue;
      const atSec = this.#releaseOf(index);
      if (atSec >= cutoffSec) continue;
      const onNode = gpusOnNode(run, position);
      releasedBeforeCutoff += onNode;
      // Insertion sort by release time, then fewer GPUs first.
      let at = count;
      while (
        at > 0 &&
        (scratchAt[at - 1]! > atSec ||
          (scratchAt[at - 1] === atSec && scratchGpus[at - 1]! > onNode))
      ) {
        scratchAt[at] = scratchAt[at - 1]!;
        scratchGpus[at] = scratchGpus[at - 1]!;
        at -= 1;
      }
      scratchAt[at] = atSec;
      scratchGpus[at] = onNode;
      count += 1;
    }
    if (have + releasedBeforeCutoff < need) return cutoffSec;
    for (let i = 0; i < count; i += 1) {
      have += scratchGpus[i]!;
      if (have >= need) return scratchAt[i]!;
    }
    return cutoffSec;
  }

  /** Whether `position` has `need` GPUs by `atSec` (inclusive) or before it: `readyAt` <= or <. */
  isReadyBy(position: number, need: number, atSec: number, isInclusive: boolean): boolean {
    const { pool, runs, heldByPosition, nowSec } = this.#request;
    // Free GPUs count as released now.
    let have = (isInclusive ? nowSec <= atSec : nowSec < atSec) ? pool.free[position]! : 0;
    for (const index of heldByPosition[position] ?? []) {
      if (have >= need) break;
      const run = runs[index]!;
      if (run.isGone) continue;
      const releaseSec = this.#releaseOf(index);
      if (isInclusive ? releaseSec <= atSec : releaseSec < atSec) have += gpusOnNode(run, position);
    }
    return have >= need;
  }

  // A need of all of a node's GPUs (a whole node of a gang job, or a job as large as its node)
  // is met when the last run on it releases: no order of releases to sort, and no GPUs to count,
  // as free and held GPUs add up to the node's (`ReservationRequest`). One run released at or
  // after the cutoff decides.
  #wholeNodeReadyAt(held: readonly number[], cutoffSec: number): number {
    const { runs, nowSec } = this.#request;
    let latestSec = nowSec;
    for (const index of held) {
      if (runs[index]!.isGone) continue;
      const atSec = this.#releaseOf(index);
      if (atSec >= cutoffSec) return cutoffSec;
      if (atSec > latestSec) latestSec = atSec;
    }
    return latestSec;
  }

  // Release times of multi-node runs are kept in the shared arrays (met once per node).
  #releaseOf(index: number): number {
    const { runs, jobRank, nowSec } = this.#request;
    const run = runs[index]!;
    // The first two rules of `releaseAtSec`, kept in step with it: decided without reading the
    // run's slices, which lie elsewhere in memory.
    if (!run.isAllocated) return nowSec;
    if (run.rank <= jobRank) return Number.POSITIVE_INFINITY;
    if (run.slices.length === 1) return this.#release(index);
    // Runs added since the arrays grew (none in a pass so far) go uncached.
    const { releaseStamps, releaseTimes } = this.#request.scratch;
    if (index >= releaseStamps.length) return this.#release(index);
    if (releaseStamps[index] !== this.#stamp) {
      releaseTimes[index] = this.#release(index);
      releaseStamps[index] = this.#stamp;
    }
    return releaseTimes[index]!;
  }

  #release(index: number): number {
    const { jobRank, runs, nowSec, isShielded } = this.#request;
    const run = runs[index]!;
    // The share guard is asked only of the runs it could keep: unprotected, ranked below.
    const mayBeShielded =
      isShielded !== undefined &&
      run.isAllocated &&
      run.rank > jobRank &&
      run.protectedUntilSec <= nowSec;
    return releaseAtSec(run, jobRank, nowSec, mayBeShielded && isShielded(index));
  }
}

/** The GPUs a run holds on one node. */
function gpusOnNode(run: HeldRun, position: number): number {
  const { slices } = run;
  if (slices.length === 1) return slices[0]!.gpus;
  for (const slice of slices) if (slice.position === position) return slice.gpus;
  return 0;
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
