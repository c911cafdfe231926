import { isShortJob } from "./short-jobs";
import type { PendingJob } from "./types";

// The short jobs' node (ADR 098): each pass keeps the unprotected runs of one node out of reach
// of jobs that are not short, so that a short job arriving finds a run it may preempt at once
// instead of waiting for a protection to end. The runs go on; nothing idles for it.

/**
 * The fewest healthy full-size nodes a cluster needs for a node to be kept for short jobs: the
 * node kept is then at most a sixteenth of them, and other jobs keep the rest to preempt on.
 */
export const SHORT_RESERVE_MIN_NODES = 16;

/** What the choice reads of a run: where it holds GPUs, and whether it could be kept. */
export type ReserveRun = {
  isGone: boolean;
  isAllocated: boolean;
  isProtectedNow: boolean;
  /** Leaf rank of its budget (1 = first). */
  rank: number;
  slices: readonly { position: number }[];
};

/** What the choice reads of the nodes, by position. */
export type ReserveNodes = {
  capacity: ArrayLike<number>;
  free: ArrayLike<number>;
  isUsable: ArrayLike<number>;
  nodeSizeGpus: number;
};

/**
 * The position whose runs a pass keeps for short jobs (ADR 098), or -1 when none qualifies or
 * the cluster has fewer than {@link SHORT_RESERVE_MIN_NODES} healthy full-size nodes
 * (`fullNodes`): among healthy full-size nodes that are not wholly free and whose every run is
 * allocated and unprotected, the one whose best-ranked run ranks lowest, so that the most
 * budgets' short jobs may preempt it (ties: lowest position). Chosen once, before the pass
 * decides anything. O(nodes): a node's first protected or unallocated run rules it out.
 *
 * @example chooseShortReserve(nodes, runs, heldByPosition, 40) // 3: node 3's runs rank lowest
 */
export function chooseShortReserve(
  nodes: ReserveNodes,
  runs: readonly ReserveRun[],
  heldByPosition: readonly (readonly number[])[],
  fullNodes: number,
): number {
  if (fullNodes < SHORT_RESERVE_MIN_NODES) return -1;
  let chosen = -1;
  let chosenBestRank = 0;
  for (let position = 0; position < nodes.free.length; position += 1) {
    if (!nodes.isUsable[position] || nodes.capacity[position] !== nodes.nodeSizeGpus) continue;
    if (nodes.free[position]! >= nodes.nodeSizeGpus) continue;
    const bestRank = bestRankIfAllUnprotected(runs, heldByPosition[position] ?? []);
    if (bestRank > chosenBestRank) {
      chosen = position;
      chosenBestRank = bestRank;
    }
  }
  return chosen;
}

/** The best (lowest) rank of the runs, or 0 when one is unallocated or protected. */
function bestRankIfAllUnprotected(runs: readonly ReserveRun[], held: readonly number[]): number {
  let bestRank = Number.POSITIVE_INFINITY;
  for (const index of held) {
    const run = runs[index]!;
    if (run.isGone) continue;
    if (!run.isAllocated || run.isProtectedNow) return 0;
    if (run.rank < bestRank) bestRank = run.rank;
  }
  return Number.isFinite(bestRank) ? bestRank : 0;
}

/**
 * The reserve position as `job` sees it: the pass's for an allocated job that is not short (it
 * may not preempt the runs there, nor count on them in its reservation), -1 for a short job.
 *
 * @example reserveKeptFrom({ gpus: 16, minRuntimeSec: 7200 }, 8, 3) // 3
 */
export function reserveKeptFrom(
  job: Pick<PendingJob, "gpus" | "minRuntimeSec">,
  nodeSizeGpus: number,
  reserveAt: number,
): number {
  return isShortJob(job, nodeSizeGpus) ? -1 : reserveAt;
}

/**
 * Whether a run holds GPUs on `position` (-1: none does).
 *
 * @example holdsOn({ slices: [{ position: 2 }] }, 2) // true
 */
export function holdsOn(
  run: { slices: readonly { position: number }[] },
  position: number,
): boolean {
  if (position < 0) return false;
  for (const slice of run.slices) if (slice.position === position) return true;
  return false;
}
