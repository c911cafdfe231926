import type { ActiveRun, Issue, Result } from "./types";

/** docs/contract.md: the default largest minimum runtime a job may declare, 8 h in seconds. */
export const DEFAULT_MAX_MIN_RUNTIME_SEC = 8 * 3600;

/** What happens to a preempted job: requeued with its remaining work, or ended. */
export type PreemptionOutcome = "requeued" | "preempted";

/** The contract fields a job declares (docs/contract.md). */
export type JobContract = { gpus: number; minRuntimeSec: number };

/**
 * Checks a job's GPUs and minimum runtime: GPUs a positive integer, minimum runtime finite,
 * in [0, maxMinRuntimeSec]. More than the maximum is refused with `min-runtime-too-long`.
 *
 * @example
 * validateContract({ gpus: 8, minRuntimeSec: 9 * 3600 }, 8 * 3600)
 * // { ok: false, issues: [{ code: "min-runtime-too-long", ... }] }
 */
export function validateContract(
  contract: JobContract,
  maxMinRuntimeSec: number = DEFAULT_MAX_MIN_RUNTIME_SEC,
): Result<JobContract> {
  const issues: Issue[] = [];
  if (!Number.isInteger(contract.gpus) || contract.gpus <= 0) {
    issues.push({
      code: "invalid-gpus",
      message: `A job needs a whole, positive number of GPUs (got ${contract.gpus}).`,
    });
  }
  if (!Number.isFinite(contract.minRuntimeSec) || contract.minRuntimeSec < 0) {
    issues.push({
      code: "invalid-min-runtime",
      message: `Minimum runtime must be a finite number of seconds >= 0 (got ${contract.minRuntimeSec}).`,
    });
  } else if (contract.minRuntimeSec > maxMinRuntimeSec) {
    issues.push({
      code: "min-runtime-too-long",
      message: `Minimum runtime ${contract.minRuntimeSec} s is above this cluster's maximum of ${maxMinRuntimeSec} s.`,
    });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: contract };
}

/**
 * A run is allocated iff its minimum runtime is above 0 and its budget's effective share is
 * above 0; allocated time is charged and protected, unallocated time is neither.
 *
 * @example isAllocatedRun(3600, 0) // false: a budget with no share only gets free time
 */
export function isAllocatedRun(minRuntimeSec: number, effectiveShare: number): boolean {
  return minRuntimeSec > 0 && effectiveShare > 0;
}

/**
 * End of a run's protected period: start + minimum runtime for allocated runs, start itself
 * for unallocated ones (never protected).
 *
 * @example protectedUntilSec(100, 3600, true) // 3700
 */
export function protectedUntilSec(
  startSec: number,
  minRuntimeSec: number,
  isAllocated: boolean,
): number {
  return isAllocated ? startSec + minRuntimeSec : startSec;
}

/**
 * Whether nothing but a node going down may preempt the run at `nowSec`: true strictly
 * before `protectedUntilSec`.
 *
 * @example isProtected({ ...run, isAllocated: true, protectedUntilSec: 3700 }, 3700) // false
 */
export function isProtected(
  run: Pick<ActiveRun, "isAllocated" | "protectedUntilSec">,
  nowSec: number,
): boolean {
  return run.isAllocated && nowSec < run.protectedUntilSec;
}

/**
 * A preempted resumable job goes back to the queue; a non-resumable one ends `preempted`.
 *
 * @example preemptionOutcome(false) // "preempted"
 */
export function preemptionOutcome(isResumable: boolean): PreemptionOutcome {
  return isResumable ? "requeued" : "preempted";
}
