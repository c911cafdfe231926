import type { PassState } from "./pass-state";
import type { PendingQueue } from "./pending-queue";
import { placementShape } from "./placement";
import type { WaitDecision } from "./reasons";
import type { Reservation } from "./reservation";
import { describeWaiting, type WaitContext } from "./wait-reasons";

/**
 * The pass's last phase: a reason for every job left waiting, allocated ones then unallocated
 * ones, each in queue order, appended to `into`. `heldReservation`: the reservation's nodes as
 * the allocated sweep left them (chosen before unallocated work started), or null. Internal to
 * the pass.
 *
 * @example describeWaitingJobs(pass, queue, heldReservation, result.waiting)
 */
export function describeWaitingJobs(
  pass: PassState,
  queue: PendingQueue,
  heldReservation: Reservation | null,
  into: WaitDecision[],
): void {
  const { pool, rankOf, isStarted, reservation } = pass;
  const context: WaitContext = {
    nowSec: pass.nowSec,
    pool,
    live: pass.live,
    reservation:
      reservation && heldReservation
        ? {
            holderId: reservation.holder.id,
            holderBudgetId: reservation.holder.budgetId,
            holderGpus: reservation.holder.gpus,
            ...heldReservation,
          }
        : null,
    rankOf,
    budgetRef: pass.budgetRef,
    partingOf: pass.partingOf,
    shapeOf: (gpus) => placementShape(gpus, pool.nodeSizeGpus),
    holdings: pass.holdings,
    shortReserveAt: pass.shortReserveAt,
  };
  const describe = describeWaiting(context);
  for (const isAllocated of [true, false]) {
    const nextGroup = queue.walk(isAllocated, rankOf);
    for (let group = nextGroup(); group; group = nextGroup()) {
      for (let job = group.next(); job; job = group.next()) {
        if (!isStarted.has(job)) into.push(describe(job, isAllocated));
      }
    }
  }
}
