// The decisions of the leader lease (docs/decisions/091-replicas-and-a-lease.md), pure: times are
// arguments. lib/leader/leader.ts takes and renews the lease and acts on what these return.

/** The lease whose holder runs the tick timer and the demo executor ("live": its stored name). */
export const LEADER_LEASE = "live";
/** A lease expires this long after its last renewal (database clock). */
export const LEASE_TTL_SEC = 30;
/** Holders renew, and the others try to take it, this often: a dead holder is replaced 20-40 s after it died. */
export const LEASE_RENEW_SEC = 10;
/**
 * A holder that could not renew stops this long before its lease can expire, so a slow
 * database answer or a clock running fast never lets two holders act at once.
 */
export const LEASE_SAFETY_SEC = 5;
/** The lease's three times for a TTL: renew every third of it, stop a sixth of it before expiry. */
export type LeaseTimes = { ttlSec: number; renewSec: number; safetySec: number };

/**
 * The renewal interval and safety margin that go with a lease of `ttlSec` (ALLOT_LEASE_TTL_SEC):
 * the proportions of the defaults, so a shorter lease keeps the same margins relative to it.
 *
 * @example leaseTimes(30) // { ttlSec: 30, renewSec: 10, safetySec: 5 } (the defaults)
 */
export function leaseTimes(ttlSec: number = LEASE_TTL_SEC): LeaseTimes {
  return {
    ttlSec,
    renewSec: (ttlSec * LEASE_RENEW_SEC) / LEASE_TTL_SEC,
    safetySec: (ttlSec * LEASE_SAFETY_SEC) / LEASE_TTL_SEC,
  };
}

/** A lease vacant longer than this means nobody drove the demo: its clock resumes from the last tick. */
export const LEASE_VACANT_PAUSE_SEC = 60;

/** What this process knows about its own leadership. */
export type Leadership = {
  isLeading: boolean;
  /** Local monotonic milliseconds until which its last renewal surely holds; 0 when none. */
  deadlineMs: number;
};

/**
 * An attempt's outcome: `held` (taken or renewed, by a statement sent at `sentAtMs`), `taken`
 * (another holder has it), `unknown` (the statement failed, or no attempt: a deadline check).
 */
export type LeaseOutcome =
  { kind: "held"; sentAtMs: number } | { kind: "taken" } | { kind: "unknown" };

/** What to do: start or stop the leader's work, or nothing. */
export type LeadershipChange = "lead" | "lose" | null;

/**
 * Leadership after an outcome at local monotonic time `nowMs`. A renewal counts from when it
 * was sent (the database's expiry is at least that late), less the safety margin; an unknown
 * outcome keeps leadership only until that deadline.
 *
 * @example nextLeadership({ isLeading: false, deadlineMs: 0 }, { kind: "held", sentAtMs: 1000 }, 1050)
 * // { leadership: { isLeading: true, deadlineMs: 26000 }, change: "lead" }
 */
export function nextLeadership(
  leadership: Leadership,
  outcome: LeaseOutcome,
  nowMs: number,
  ttlSec: number = LEASE_TTL_SEC,
  safetySec: number = LEASE_SAFETY_SEC,
): { leadership: Leadership; change: LeadershipChange } {
  if (outcome.kind === "held") {
    const deadlineMs = outcome.sentAtMs + (ttlSec - safetySec) * 1000;
    if (deadlineMs <= nowMs) {
      // The answer came so late the lease may already have gone: act as if it had.
      return lost(leadership);
    }
    return {
      leadership: { isLeading: true, deadlineMs },
      change: leadership.isLeading ? null : "lead",
    };
  }
  if (outcome.kind === "taken" || nowMs >= leadership.deadlineMs) return lost(leadership);
  return { leadership, change: null };
}

function lost(leadership: Leadership): { leadership: Leadership; change: LeadershipChange } {
  return {
    leadership: { isLeading: false, deadlineMs: 0 },
    change: leadership.isLeading ? "lose" : null,
  };
}

/**
 * Whether a new leader finds the lease vacant so long (or never taken) that nobody drove the
 * demo meanwhile: then an accelerated clock resumes from the last tick, as after a restart;
 * after a failover or a handover it just continues.
 *
 * @example wasLeaseVacant({ dbNowMs: 100_000, previousExpiresAtMs: 70_000 }) // false (30 s)
 */
export function wasLeaseVacant(
  lease: { dbNowMs: number; previousExpiresAtMs: number | null },
  vacantPauseSec: number = LEASE_VACANT_PAUSE_SEC,
): boolean {
  if (lease.previousExpiresAtMs === null) return true;
  return lease.dbNowMs - lease.previousExpiresAtMs > vacantPauseSec * 1000;
}

/**
 * A holder id that names the process in logs and tells two processes apart even when a pid is
 * reused on another host or after a restart.
 *
 * @example leaseHolderId("allot-1", 4242, "9f3a1c") // "allot-1:4242:9f3a1c"
 */
export function leaseHolderId(hostname: string, pid: number, nonce: string): string {
  return `${hostname}:${pid}:${nonce}`;
}
