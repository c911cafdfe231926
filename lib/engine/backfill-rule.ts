// Backfill onto nodes kept for a reservation (docs/contract.md, step 7): who may use their free
// GPUs. One rule for the pass, its reference and their property tests.

/**
 * The longest protection a job may have to backfill onto nodes kept for a reservation whose
 * ready time is unknown (ADR 097): two hours. Its holder waits on runs of budgets ranked at or
 * above it, whose end nobody can foresee, so its nodes are not kept idle for all that time; the
 * holder may preempt such a backfilled run once its protection ends, where the share guard
 * allows (docs/contract.md, step 7).
 */
export const UNKNOWN_READY_BACKFILL_MAX_SEC = 2 * 3600;

/**
 * Whether a job protected for `minRuntimeSec` from `nowSec` may use free GPUs kept for a
 * reservation ready at `readyAtSec` (null: unknown), its budget ranked below the holder's: its
 * protection ends by then, so the holder can take the GPUs back in time (where the share guard
 * allows); or the ready time is unknown and its protection is at most
 * {@link UNKNOWN_READY_BACKFILL_MAX_SEC}.
 *
 * @example isBackfillOpen(reservation.readyAtSec, nowSec, job.minRuntimeSec)
 */
export function isBackfillOpen(
  readyAtSec: number | null,
  nowSec: number,
  minRuntimeSec: number,
): boolean {
  return readyAtSec === null
    ? minRuntimeSec <= UNKNOWN_READY_BACKFILL_MAX_SEC
    : nowSec + minRuntimeSec <= readyAtSec;
}

/**
 * The latest a backfill candidate's protection may end, from `nowSec`, on nodes ready at
 * `readyAtSec` (null: unknown); for screening candidates without asking each.
 *
 * @example backfill.untilSec = backfillUntilSec(reservation.readyAtSec, nowSec)
 */
export function backfillUntilSec(readyAtSec: number | null, nowSec: number): number {
  return readyAtSec ?? nowSec + UNKNOWN_READY_BACKFILL_MAX_SEC;
}
