import { preemptToStart, type StartOutcome } from "./pass-preempt";
import { mayPlace, reservedNodes, startJob, type PassState } from "./pass-state";
import { placeJob } from "./placement";
import type { NodeSlice, PendingJob } from "./types";

/**
 * Tries to start an allocated job (ADR 010, "Place" then "Preempt"): on free GPUs outside the
 * sweep's reservation, else after preempting what it may preempt (`preemptToStart`). Internal
 * to the pass.
 *
 * @example if (tryStartAllocated(pass, job, group.rank) === "failed") pass.smallestFailedGpus = job.gpus
 */
export function tryStartAllocated(pass: PassState, job: PendingJob, jobRank: number): StartOutcome {
  const { reservation } = pass;
  // Reserved nodes only take options away: what cannot be placed or planned without them
  // cannot be with them, and then the reservation's nodes need not be chosen. Fewer free GPUs
  // than the job needs: no placement at all.
  const isReservationOpen = reservation !== null && reservation.value === null;
  let placement = mayPlace(pass, job.gpus) ? placeJob(pass.pool, job.gpus) : null;
  if (placement && reservation) placement = placeOutsideReservation(pass, job, placement);
  if (placement) {
    startJob(pass, job, true, placement, []);
    return "started";
  }
  return preemptToStart(pass, job, jobRank, isReservationOpen);
}

/**
 * Keeps a placement of free GPUs if its one node is outside the reservation, shown without
 * choosing the reservation where it can be (ADR 014: the share guard is then asked on the
 * holdings of this moment, `shield`); else places the job outside the reservation.
 */
function placeOutsideReservation(
  pass: PassState,
  job: PendingJob,
  placement: NodeSlice[],
): NodeSlice[] | null {
  const { pool } = pass;
  const open = pass.reservation!;
  if (open.value === null && open.check && placement.length === 1) {
    const verdict = open.check(pool.positionOf.get(placement[0]!.node)!);
    if (verdict.isOutside) {
      open.shield ??= pass.holdings.snapshot();
      return placement;
    }
    open.value = verdict.reservation;
  }
  return mayPlace(pass, job.gpus)
    ? placeJob(pool, job.gpus, reservedNodes(pass)!.isExcluded)
    : null;
}
