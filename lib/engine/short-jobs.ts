import type { ShortStart } from "./reasons";
import type { PendingJob } from "./types";

// Short jobs (ADR 092): the `debug` class of docs/concepts.md, which a pass tries once more after
// the allocated sweeps, with rules of their own (`sweepShortJobs`, the reference pass's step 6e).

/** The longest minimum runtime of a short job: its protection ends within 15 minutes. */
export const SHORT_MAX_RUNTIME_SEC = 900;

/**
 * The most rounds of allocated sweeps then a short sweep in one pass: a short sweep whose
 * preemption freed GPUs beyond its job's has the queue swept again, as the allocated sweeps do.
 */
export const MAX_SHORT_ROUNDS = 8;

/** The most GPUs of a short job, on one node. */
export const SHORT_MAX_GPUS = 8;

/**
 * The most GPUs a short job may ask for on nodes of `nodeSizeGpus`: eight, and one node.
 *
 * @example shortMaxGpus(4) // 4
 */
export function shortMaxGpus(nodeSizeGpus: number): number {
  return Math.min(SHORT_MAX_GPUS, nodeSizeGpus);
}

/**
 * Whether an allocated job is short (ADR 092): a minimum runtime of at most 15 minutes and at
 * most eight GPUs on one node of `nodeSizeGpus`. The caller knows the job is allocated.
 *
 * @example isShortJob({ gpus: 4, minRuntimeSec: 600 }, 8) // true
 */
export function isShortJob(
  job: Pick<PendingJob, "gpus" | "minRuntimeSec">,
  nodeSizeGpus: number,
): boolean {
  return job.minRuntimeSec <= SHORT_MAX_RUNTIME_SEC && job.gpus <= shortMaxGpus(nodeSizeGpus);
}

/**
 * What a short job's start records (`StartReason.short`): whether it waived the share guard, and
 * `isBeforeQueue` only when it started in the sweep before the ranked queue (ADR 098).
 *
 * @example shortStart(false, true) // { isShareGuardWaived: false, isBeforeQueue: true }
 */
export function shortStart(isShareGuardWaived: boolean, isBeforeQueue: boolean): ShortStart {
  return isBeforeQueue ? { isShareGuardWaived, isBeforeQueue: true } : { isShareGuardWaived };
}
