import type { PendingQueue, QueueGroup, RankOf } from "./pending-queue";
import { mayPlaceWithin, placeJob, type FreeGpuBounds, type GpuPool } from "./placement";
import type { NodeSlice, PendingJob } from "./types";

/**
 * The pass's last phase of starts (ADR 010, "Unallocated work"): unallocated jobs in queue order
 * take free GPUs of healthy nodes, reserved ones included, once no allocated job could start on
 * them. A size that could not be placed blocks larger ones. `start` records a start (and keeps
 * `bounds` and `pool` current). Internal to the pass.
 *
 * @example startUnallocatedJobs(queue, rankOf, pool, bounds, (job, placement) => start(job, placement))
 */
export function startUnallocatedJobs(
  queue: PendingQueue,
  rankOf: RankOf,
  pool: GpuPool,
  bounds: FreeGpuBounds,
  start: (job: PendingJob, placement: NodeSlice[]) => void,
): void {
  const { minGpus } = queue;
  let smallestFailedUnallocated = Number.POSITIVE_INFINITY;
  const mayStartUnallocated = (gpus: number): boolean =>
    gpus < smallestFailedUnallocated && gpus <= bounds.usableFreeGpus;
  const nextUnallocatedGroup = queue.walk(false, rankOf);
  // Larger jobs than this could not be placed.
  const nextUnallocatedOf = (group: QueueGroup): PendingJob | undefined => {
    const maxGpus = Math.min(smallestFailedUnallocated - 1, bounds.usableFreeGpus);
    return maxGpus < group.minGpus ? undefined : group.next(maxGpus);
  };
  unallocated: for (let group = nextUnallocatedGroup(); group; group = nextUnallocatedGroup()) {
    for (let job = nextUnallocatedOf(group); job; job = nextUnallocatedOf(group)) {
      if (!mayStartUnallocated(minGpus)) break unallocated;
      if (!mayStartUnallocated(group.minGpus)) continue unallocated;
      if (job.gpus >= smallestFailedUnallocated) continue;
      const placement = mayPlaceWithin(bounds, job.gpus) ? placeJob(pool, job.gpus) : null;
      if (placement) start(job, placement);
      else smallestFailedUnallocated = job.gpus;
    }
  }
}
