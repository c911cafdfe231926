// Runs the leader lease for this process (docs/decisions/091-replicas-and-a-lease.md): tries to
// take or renew it every LEASE_RENEW_SEC, starts the leader's work when it gets it and stops it
// at once when it loses it (another holder has it, or no renewal succeeded in time). The
// decisions are lib/leader/leadership.ts; the statements lib/data/db/lease.ts.
import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "../data/db/client";
import { releaseLease, takeLease, type HeldLease } from "../data/db/lease";
import type { Logger } from "../log/logger";
import { getMetrics } from "../metrics/registry";
import { setLeaderHandle, type LeaderHandle } from "./leader-handle";
import {
  LEASE_RENEW_SEC,
  LEASE_SAFETY_SEC,
  LEASE_TTL_SEC,
  leaseHolderId,
  nextLeadership,
  type Leadership,
  type LeaseOutcome,
} from "./leadership";

export type LeaderOptions = {
  db: Db;
  log: Logger;
  /** The lease's name (LEADER_LEASE). */
  lease: string;
  /** Starts the leader's work; `lease` says whom it took the lease from. */
  onLead: (lease: HeldLease) => Promise<void>;
  /** Stops the leader's work at once. */
  onLose: () => void;
  /** Defaults: LEASE_RENEW_SEC, LEASE_TTL_SEC, LEASE_SAFETY_SEC (tests shorten them). */
  renewSec?: number;
  ttlSec?: number;
  safetySec?: number;
};

/** This process's holder id: host, pid and a random nonce. */
function newHolderId(): string {
  return leaseHolderId(hostname(), process.pid, randomBytes(3).toString("hex"));
}

/**
 * Starts the election; resolves after the first attempt, so a replica that can lead has
 * started its work before it serves.
 */
export async function startLeaderElection(options: LeaderOptions): Promise<LeaderHandle> {
  const { db, log, lease } = options;
  const renewMs = (options.renewSec ?? LEASE_RENEW_SEC) * 1000;
  const ttlSec = options.ttlSec ?? LEASE_TTL_SEC;
  const safetySec = options.safetySec ?? LEASE_SAFETY_SEC;
  const holder = newHolderId();
  const gauge = getMetrics().leader;
  let leadership: Leadership = { isLeading: false, deadlineMs: 0 };
  let isStopped = false;
  let attemptTimer: NodeJS.Timeout | undefined;
  let deadlineTimer: NodeJS.Timeout | undefined;

  /** Acts on an outcome; resolves once the leader's work has started (or failed to). */
  async function apply(outcome: LeaseOutcome, held: HeldLease | null): Promise<void> {
    const next = nextLeadership(leadership, outcome, performance.now(), ttlSec, safetySec);
    leadership = next.leadership;
    clearTimeout(deadlineTimer);
    if (leadership.isLeading) {
      // No renewal by the deadline (the database stalls): stop the work without waiting for it.
      const untilMs = Math.max(0, leadership.deadlineMs - performance.now());
      deadlineTimer = setTimeout(() => void apply({ kind: "unknown" }, null), untilMs);
      deadlineTimer.unref();
    }
    if (next.change === "lead" && held) {
      gauge.set(1);
      log.info(
        {
          lease,
          holder,
          previousHolder: held.previous?.holder ?? null,
          expiresAt: held.expiresAt.toISOString(),
        },
        "lease taken: this replica leads (the `leader:` line says what it runs)",
      );
      try {
        await options.onLead(held);
      } catch (error) {
        // A leader without its work would hold the lease for nothing: let it go, try again later.
        log.error({ lease, holder, err: error }, "leader work failed to start: lease released");
        leadership = { isLeading: false, deadlineMs: 0 };
        clearTimeout(deadlineTimer);
        gauge.set(0);
        options.onLose();
        await releaseLease(db, lease, holder).catch(() => false);
      }
    } else if (next.change === "lose") {
      gauge.set(0);
      log.warn(
        { lease, holder, reason: outcome.kind === "taken" ? "taken" : "not_renewed" },
        "lease lost: this replica stops leading (the tick timer, and the demo executor if on)",
      );
      options.onLose();
    }
  }

  async function attempt(): Promise<void> {
    const sentAtMs = performance.now();
    let outcome: LeaseOutcome;
    let held: HeldLease | null = null;
    try {
      held = await takeLease(db, lease, holder, ttlSec);
      outcome = held ? { kind: "held", sentAtMs } : { kind: "taken" };
    } catch (error) {
      log.warn({ lease, holder, err: error }, "lease: database unreachable");
      outcome = { kind: "unknown" };
    }
    if (!isStopped) await apply(outcome, held);
  }

  async function loop(): Promise<void> {
    await attempt();
    if (isStopped) return;
    attemptTimer = setTimeout(() => void loop(), renewMs);
    attemptTimer.unref();
  }

  const handle: LeaderHandle = {
    holder,
    isLeading: () => leadership.isLeading,
    stop: async () => {
      if (isStopped) return;
      isStopped = true;
      clearTimeout(attemptTimer);
      clearTimeout(deadlineTimer);
      if (!leadership.isLeading) return;
      leadership = { isLeading: false, deadlineMs: 0 };
      gauge.set(0);
      options.onLose();
      await releaseLease(db, lease, holder).catch(() => false);
      log.info({ lease, holder }, "lease released");
    },
  };
  setLeaderHandle(handle);
  log.info({ lease, holder }, "lease: this replica's holder id");
  await loop();
  return handle;
}
