import { isBackfillOpen } from "./backfill-rule";
import { mayPlace, reservedNodes, startJob, type PassState } from "./pass-state";
import { placeJob } from "./placement";
import type { PendingJob } from "./types";

/**
 * Whether a job of this rank, size and minimum runtime may backfill (ADR 010, "Backfill"): a job
 * ranked below the reservation's holder whose protection ends before the reserved nodes are
 * ready may use their free GPUs; the holder, ranked above, can preempt it by then. When no ready
 * time is known, protections of up to two hours may (ADR 097, `isBackfillOpen`). Cheap tests
 * first: the reservation's nodes are chosen only when they decide. Internal to the pass.
 *
 * @example mayBackfill(pass, group.rank, group.minGpus, group.minMinRuntimeSec)
 */
export function mayBackfill(
  pass: PassState,
  rank: number,
  gpus: number,
  minRuntimeSec: number,
): boolean {
  const { reservation } = pass;
  if (reservation === null || rank <= reservation.holderRank) return false;
  if (gpus >= pass.smallestFailedBackfillGpus || gpus > pass.bounds.usableFreeGpus) return false;
  const readyAtSec = reservedNodes(pass)!.readyAtSec;
  return isBackfillOpen(readyAtSec, pass.nowSec, minRuntimeSec);
}

/**
 * Starts `job` as backfill on free GPUs, reserved ones included, if it may backfill; a size that
 * may but cannot be placed blocks larger backfill for the rest of the sweep. Internal to the pass.
 *
 * @example tryBackfill(pass, job, group.rank)
 */
export function tryBackfill(pass: PassState, job: PendingJob, jobRank: number): void {
  const { reservation } = pass;
  if (!reservation || !mayBackfill(pass, jobRank, job.gpus, job.minRuntimeSec)) return;
  const placement = mayPlace(pass, job.gpus) ? placeJob(pass.pool, job.gpus) : null;
  if (placement) {
    startJob(pass, job, true, placement, [], {
      jobId: reservation.holder.id,
      budget: pass.budgetRef(reservation.holder.budgetId),
      readyAtSec: reservedNodes(pass)!.readyAtSec,
    });
  } else {
    pass.smallestFailedBackfillGpus = job.gpus;
  }
}
