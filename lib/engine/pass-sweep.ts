import { backfillUntilSec, isBackfillOpen } from "./backfill-rule";
import { mayBackfill, tryBackfill } from "./pass-backfill";
import { tryStartAllocated } from "./pass-place";
import { openReservation } from "./pass-reservation";
import type { PassState } from "./pass-state";
import type { BackfillScreen, PendingQueue, QueueGroup } from "./pending-queue";
import type { PendingJob } from "./types";
import { reserveKeptFrom } from "./short-reserve";

/** The most sweeps of the allocated queue in one pass. */
const MAX_SWEEPS = 8;

/**
 * The pass's allocated phase (ADR 010): walks the allocated jobs in queue order (`queue.walk`:
 * budgets by rank, then priority, submit time, id) and for each tries, in turn, to place it on
 * free GPUs outside the reservation, to preempt for it (`tryStartAllocated`), to make it the
 * sweep's reservation holder if it is the first that failed (`openReservation`), and to backfill
 * it (`tryBackfill`). The queue is swept again, from its head, only when a preemption freed GPUs
 * beyond its job's; at most {@link MAX_SWEEPS} times. Internal to the pass.
 *
 * Relies on jobs arriving in non-decreasing rank: a job that could not start at size g, and
 * could not preempt, blocks every later job of size >= g in the sweep (`smallestFailedGpus`),
 * since a later job ranks no better and so may preempt no more; likewise a size that could not
 * backfill blocks larger backfill, and the reservation's holder is the best-ranked job that
 * failed, so only groups ranked below it may backfill. Groups and the whole walk are passed over
 * on those bounds without reading their jobs (`mayStart`).
 *
 * @example sweepAllocatedQueue(pass, queue)
 */
export function sweepAllocatedQueue(pass: PassState, queue: PendingQueue): void {
  const { minGpus } = queue;
  // The screen of backfill candidates the walk may pass over, set before each read.
  const backfill: BackfillScreen = { fromGpus: 0, nowSec: pass.nowSec, untilSec: 0 };
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep += 1) {
    pass.reservation = null;
    pass.hasFreedExtra = false;
    pass.smallestFailedGpus = Number.POSITIVE_INFINITY;
    pass.smallestFailedBackfillGpus = Number.POSITIVE_INFINITY;
    const nextGroup = queue.walk(true, pass.rankOf);
    groups: for (let group = nextGroup(); group; group = nextGroup()) {
      const jobRank = group.rank;
      // The bounds change only when a job is tried: checked then and at the group's start.
      let isChecked = false;
      for (
        let job = nextOf(pass, group, isChecked, backfill);
        job;
        job = nextOf(pass, group, isChecked, backfill)
      ) {
        if (!isChecked) {
          if (!mayStart(pass, Number.POSITIVE_INFINITY, minGpus, 0)) break groups;
          if (!mayStart(pass, jobRank, group.minGpus, group.minMinRuntimeSec)) continue groups;
          isChecked = true;
        }
        if (isSurelyBlocked(pass, job, jobRank) || pass.isStarted.has(job)) continue;
        isChecked = false;
        tryJob(pass, job, jobRank);
      }
    }
    if (!pass.hasFreedExtra) break;
  }
}

/** Place or preempt, else reserve, else backfill: one allocated job's turn in the sweep. */
function tryJob(pass: PassState, job: PendingJob, jobRank: number): void {
  if (job.gpus < pass.smallestFailedGpus) {
    const outcome = tryStartAllocated(pass, job, jobRank);
    if (outcome === "started") return;
    if (outcome === "started-with-surplus") {
      // GPUs freed beyond the job's may let a size that failed fit now.
      pass.hasFreedExtra = true;
      pass.smallestFailedGpus = Number.POSITIVE_INFINITY;
      pass.smallestFailedBackfillGpus = Number.POSITIVE_INFINITY;
      return;
    }
    pass.smallestFailedGpus = job.gpus;
    if (!pass.reservation) {
      const { loaded } = pass;
      pass.reservation = openReservation({
        job,
        jobRank,
        pool: pass.pool,
        live: pass.live,
        heldByPosition: loaded.heldByPosition,
        nowSec: pass.nowSec,
        nodeRuns: loaded.nodeRuns,
        holdings: pass.holdings,
        nodeOfSlot: pass.nodeOfSlot,
        scratch: pass.scratch,
        reserveAt: reserveKeptFrom(job, pass.pool.nodeSizeGpus, pass.shortReserveAt),
      });
      return;
    }
  }
  tryBackfill(pass, job, jobRank);
}

/**
 * Whether a job of this rank, size and minimum runtime could still start: not blocked by size,
 * or a backfill candidate. Checked on group bounds: a group that cannot is passed over unread,
 * and once no job of the queue could, the sweep ends.
 */
function mayStart(pass: PassState, rank: number, gpus: number, minRuntimeSec: number): boolean {
  return gpus < pass.smallestFailedGpus || mayBackfill(pass, rank, gpus, minRuntimeSec);
}

/**
 * A job too large to start that could not backfill either: the usual case, screened first on
 * what is known without choosing the reservation's nodes (`mayStart` on the job, cheaply).
 */
function isSurelyBlocked(pass: PassState, job: PendingJob, jobRank: number): boolean {
  const { reservation } = pass;
  return (
    job.gpus >= pass.smallestFailedGpus &&
    (reservation === null ||
      jobRank <= reservation.holderRank ||
      job.gpus >= pass.smallestFailedBackfillGpus ||
      job.gpus > pass.bounds.usableFreeGpus ||
      (reservation.value !== null &&
        !isBackfillOpen(reservation.value.readyAtSec, pass.nowSec, job.minRuntimeSec)))
  );
}

/**
 * The group's next job that the screen below could let through: larger ones, and once the
 * group's bounds are checked, backfill candidates whose protection would outlast the
 * reservation's ready time (`backfillUntilSec`), are passed over in the queue's own loop; none when the
 * group's smallest is too large. (Unchecked, the first job read leads to the check, which may
 * end the group or the walk without reading the rest.)
 */
function nextOf(
  pass: PassState,
  group: QueueGroup,
  isChecked: boolean,
  backfill: BackfillScreen,
): PendingJob | undefined {
  const { reservation } = pass;
  if (reservation === null || group.rank <= reservation.holderRank) {
    const maxGpus = pass.smallestFailedGpus - 1;
    return maxGpus < group.minGpus ? undefined : group.next(maxGpus);
  }
  const maxGpus = Math.max(
    pass.smallestFailedGpus - 1,
    Math.min(pass.smallestFailedBackfillGpus - 1, pass.bounds.usableFreeGpus),
  );
  if (maxGpus < group.minGpus) return undefined;
  const known = reservation.value;
  if (known === null || !isChecked) return group.next(maxGpus);
  backfill.fromGpus = pass.smallestFailedGpus;
  backfill.untilSec = backfillUntilSec(known.readyAtSec, pass.nowSec);
  return group.next(maxGpus, backfill);
}
