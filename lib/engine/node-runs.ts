/** A run still holding GPUs, as the reservation sees it. */
export type HeldRun = {
  /** Ended in this pass (its GPUs are already free): ignored. */
  isGone?: boolean;
  isAllocated: boolean;
  rank: number;
  protectedUntilSec: number;
  slices: { position: number; gpus: number }[];
};

/**
 * What the allocated standing runs on each node position add up to for a whole-node ready time
 * (`reserveNodes`): their best (lowest) rank and the earliest and latest end of their
 * protection. Kept by standing runs from pass to pass, worked out again for a position only
 * when a run there came or went, or when the ranks changed: a gang job's reservation reads every
 * node at every pass, and most nodes' runs have not changed since the pass before.
 *
 * Valid for the runs as loaded: a position where the pass itself started or ended a run
 * (`touchNodeRuns`) is read from its runs, as without a summary.
 */
export type NodeRuns = {
  /**
   * Lowest rank of an allocated run per position; {@link NO_ALLOCATED_RUN} when none. Doubles, as
   * ranks are numbers: a ranking given to a pass is not checked to hold whole ones.
   */
  minRank: Float64Array;
  /** Earliest and latest `protectedUntilSec` of an allocated run per position. */
  minProtectedUntilSec: Float64Array;
  maxProtectedUntilSec: Float64Array;
  /** 1 where runs came or went, or ranks changed, since the position was summed up. */
  isStale: Uint8Array;
  /** The pass a position was last touched in (`touchedInPass`): equal to `pass` means now. */
  touchedInPass: Uint32Array;
  pass: number;
  /** The current pass's entries and the entries on each position (standing runs'). */
  entries: readonly SummedEntry[];
  heldByPosition: readonly (readonly number[])[];
};

/**
 * Entries as the summary reads them: standing runs', `run` null once removed (and for the
 * pass's own starts, which it never sums up).
 */
type SummedEntry = Pick<HeldRun, "isAllocated" | "rank" | "protectedUntilSec"> & {
  run: unknown;
};

/** `NodeRuns.minRank` of a position without allocated runs: above every rank. */
export const NO_ALLOCATED_RUN = Number.POSITIVE_INFINITY;

/** A summary of `positions` node positions, every position stale. */
export function createNodeRuns(positions: number): NodeRuns {
  return {
    minRank: new Float64Array(positions),
    minProtectedUntilSec: new Float64Array(positions),
    maxProtectedUntilSec: new Float64Array(positions),
    isStale: new Uint8Array(positions).fill(1),
    touchedInPass: new Uint32Array(positions),
    pass: 1,
    entries: [],
    heldByPosition: [],
  };
}

/** Marks a position whose standing runs changed: summed up again when next read. */
export function markNodeRunsStale(nodeRuns: NodeRuns, position: number): void {
  nodeRuns.isStale[position] = 1;
}

/** Marks every position stale: the runs' ranks or their indices changed. */
export function markAllNodeRunsStale(nodeRuns: NodeRuns): void {
  nodeRuns.isStale.fill(1);
}

/**
 * Starts a pass on the standing runs' entries as loaded (the pass's starts come after them): no
 * position is touched in it yet.
 */
export function beginNodeRunsPass(
  nodeRuns: NodeRuns,
  entries: readonly SummedEntry[],
  heldByPosition: readonly (readonly number[])[],
): void {
  nodeRuns.pass = nodeRuns.pass === 0xffffffff ? 1 : nodeRuns.pass + 1;
  if (nodeRuns.pass === 1) nodeRuns.touchedInPass.fill(0);
  nodeRuns.entries = entries;
  nodeRuns.heldByPosition = heldByPosition;
}

/** Marks a position where the current pass started or ended a run. */
export function touchNodeRuns(nodeRuns: NodeRuns, position: number): void {
  nodeRuns.touchedInPass[position] = nodeRuns.pass;
}

function sumUp(nodeRuns: NodeRuns, position: number): void {
  const { entries } = nodeRuns;
  const held = nodeRuns.heldByPosition[position]!;
  let minRank = NO_ALLOCATED_RUN;
  let minUntilSec = Number.POSITIVE_INFINITY;
  let maxUntilSec = Number.NEGATIVE_INFINITY;
  // Removed runs have no `run`. A run the pass ends is `isGone` but keeps its `run`: every such
  // end touches the run's positions (`touchNodeRuns`), which are then read from their runs, and
  // the pass's `finish` makes it not gone again, as it still stands. The sums describe the
  // standing runs, not the pass's own ends and starts.
  for (const index of held) {
    const entry = entries[index]!;
    if (entry.run === null || !entry.isAllocated) continue;
    if (entry.rank < minRank) minRank = entry.rank;
    if (entry.protectedUntilSec < minUntilSec) minUntilSec = entry.protectedUntilSec;
    if (entry.protectedUntilSec > maxUntilSec) maxUntilSec = entry.protectedUntilSec;
  }
  nodeRuns.minRank[position] = minRank;
  nodeRuns.minProtectedUntilSec[position] = minUntilSec;
  nodeRuns.maxProtectedUntilSec[position] = maxUntilSec;
  nodeRuns.isStale[position] = 0;
}

/** What the summary tells of a whole node's release (`wholeNodeRelease`). */
export const RELEASE = {
  /** It cannot tell: read the node's runs. */
  unknown: 0,
  /** Never (an allocated run ranks at or above the job). */
  never: 1,
  /** At the latest protection end (`maxProtectedUntilSec`), after now. */
  atProtectionEnd: 2,
  /** Now: no allocated run is there. */
  now: 3,
} as const;

/**
 * When `position`'s runs release the whole node for a job of rank `jobRank` at `nowSec`, as
 * `releaseAtSec` gives each run's release and the latest of them decides, from the summary:
 * never when an allocated run ranks at or above the job, else at the latest protection end, or
 * now when no allocated run is there. Unknown when the summary cannot tell: the position was
 * touched in this pass, or an allocated run there is unprotected and the share guard may shield
 * it. The position must hold some run. A kind, not a time, so that no time is boxed on its way
 * out (V8 boxes a double that is not a small integer, such as Infinity).
 *
 * @example wholeNodeRelease(nodeRuns, 3, 2, 600) // RELEASE.atProtectionEnd
 */
export function wholeNodeRelease(
  nodeRuns: NodeRuns,
  position: number,
  jobRank: number,
  nowSec: number,
): (typeof RELEASE)[keyof typeof RELEASE] {
  if (nodeRuns.touchedInPass[position] === nodeRuns.pass) return RELEASE.unknown;
  if (nodeRuns.isStale[position]) sumUp(nodeRuns, position);
  const minRank = nodeRuns.minRank[position]!;
  if (minRank === NO_ALLOCATED_RUN) return RELEASE.now;
  if (minRank <= jobRank) return RELEASE.never;
  if (nodeRuns.minProtectedUntilSec[position]! <= nowSec) return RELEASE.unknown;
  return RELEASE.atProtectionEnd;
}

/**
 * The time of a known release kind (`wholeNodeRelease`) at `position`, or `cutoffSec` when that
 * is not before it (as `readyAt` gives it).
 */
export function wholeNodeReleaseAt(
  nodeRuns: NodeRuns,
  release: (typeof RELEASE)[keyof typeof RELEASE],
  position: number,
  nowSec: number,
  cutoffSec: number,
): number {
  const atSec =
    release === RELEASE.never
      ? Number.POSITIVE_INFINITY
      : release === RELEASE.atProtectionEnd
        ? nodeRuns.maxProtectedUntilSec[position]!
        : nowSec;
  return atSec >= cutoffSec ? cutoffSec : atSec;
}
