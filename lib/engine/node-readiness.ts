import {
  RELEASE,
  wholeNodeRelease,
  wholeNodeReleaseAt,
  type HeldRun,
  type NodeRuns,
} from "./node-runs";
import type { GpuPool } from "./placement";

// When the nodes could hold a job waiting for a reservation (`reserveNodes`): what it is asked
// with, each run's release, each node's ready time, and the memory reused from one to the next.

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
  /**
   * Whether the share guard keeps the job from preempting run `index`, or the run is on the node
   * kept for short jobs and the job is kept from it (ADR 098); default never. Asked only of
   * unprotected runs ranked below the job.
   */
  isShielded?: (index: number) => boolean;
  /**
   * The standing runs' summary per position, when `runs` and `heldByPosition` are the entries it
   * sums up (a pass on standing runs): whole nodes are read from it where it can tell.
   */
  nodeRuns?: NodeRuns;
  /** The pass's working memory for reservations (`createReservationScratch`). */
  scratch: ReservationScratch;
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

/**
 * `length` zeroed bytes of the scratch's slab, never handed out twice (`bytesSlab`).
 *
 * @example const isExcluded = zeroedBytes(scratch, pool.free.length)
 */
export function zeroedBytes(scratch: ReservationScratch, length: number): Uint8Array {
  if (scratch.bytesSlabUsed + length > scratch.bytesSlab.byteLength) {
    scratch.bytesSlab = new ArrayBuffer(Math.max(length, BYTES_SLAB_SIZE));
    scratch.bytesSlabUsed = 0;
  }
  const bytes = new Uint8Array(scratch.bytesSlab, scratch.bytesSlabUsed, length);
  scratch.bytesSlabUsed += length;
  return bytes;
}

/** Doubles the option lists and `readyNowPositions` (never longer than the options), as filled. */
export function growOptions(scratch: ReservationScratch): void {
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
 * When nodes can hold a job of rank `jobRank`, from the runs on them (see `reserveNodes`). A
 * class, so that the many made in a replay share their methods instead of making closures.
 */
export class Readiness {
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
