// What every waiting job's reason reads about the pool and the runs, counted once per pass:
// free GPUs and nodes, and unprotected runs grouped for the share guard.
import type { LiveRun } from "./live-run";
import type { GpuPool } from "./placement";

/** Unprotected allocated runs of one budget and size: the share guard answers per group. */
export type RunGroup = { budgetId: string; rank: number; gpus: number; usableGpus: number };

/** Free GPUs and nodes of usable nodes, and the GPUs of unusable ones (see `countFree`). */
export type FreeCounts = {
  /** Free GPUs of usable nodes. */
  freeGpus: number;
  /** Usable full-size nodes with every GPU free. */
  freeWholeNodes: number;
  /** The most free GPUs on one usable node. */
  mostFreeOnOneNode: number;
  /** GPUs of nodes that are down or draining. */
  unusableGpus: number;
};

/** Free GPUs and free whole nodes of usable nodes, and the GPUs of unusable ones. */
export function countFree(pool: GpuPool): FreeCounts {
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
export function groupUnprotectedRuns(
  live: readonly LiveRun[],
  pool: GpuPool,
): Map<string, RunGroup> {
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
