import type { PendingQueue, RankOf } from "./pending-queue";
import type { WaitDecision } from "./reasons";
import type { PendingJob } from "./types";
import { describeWaiting, type WaitContext } from "./wait-reasons";

/**
 * The pass's last phase: a reason for every job left waiting, allocated ones then unallocated
 * ones, each in queue order, appended to `into`. Internal to the pass.
 *
 * @example describeWaitingJobs(queue, rankOf, isStarted, context, result.waiting)
 */
export function describeWaitingJobs(
  queue: PendingQueue,
  rankOf: RankOf,
  isStarted: ReadonlySet<PendingJob>,
  context: WaitContext,
  into: WaitDecision[],
): void {
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
