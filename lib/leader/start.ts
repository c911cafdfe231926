// Started once per server process (instrumentation.ts). Every replica serves requests and runs
// the ticks they cause; only the holder of the leader lease (lib/leader/leader.ts) sets the app
// clock's speed, runs the tick timer and, in demo mode with a live speed above 0, the demo executor
// (docs/decisions/091-replicas-and-a-lease.md).
import "server-only";
import { getDb, getLeaseDb } from "../data/db/app-db";
import { liveSpeed } from "../clock";
import { getNow, setClockSpeed } from "../data/db/clock";
import { toSec } from "../data/db/epoch";
import { pruneExecutorEvents } from "../data/event-pruning";
import type { HeldLease } from "../data/db/lease";
import { tickAllClusters } from "../data/tick/tick";
import { isDemoMode, leaseTtlSec, tickSeconds } from "../env";
import { getLogger, type Logger } from "../log/logger";
import { startDemoExecutor } from "../demo/executor/executor";
import { startLeaderElection } from "./leader";
import { LEADER_LEASE, LEASE_TTL_SEC, leaseTimes, wasLeaseVacant } from "./leadership";

const state = globalThis as unknown as { allotReplicaStarted?: boolean };

/** Real seconds between timer ticks: ALLOT_TICK_SEC, default 5; 0 turns the timer off. */

/** Real time between two prunings of old executor events by the leader. */
const PRUNE_EVERY_MS = 3600_000;

/** Deletes executor events past their keeping time (lib/data/event-pruning.ts), and says so. */
async function pruneEvents(log: Logger): Promise<void> {
  try {
    const db = getDb();
    const nowSec = toSec(await getNow(db));
    const deleted = await pruneExecutorEvents(db, nowSec);
    if (deleted > 0) log.info({ deleted }, "executor events pruned");
  } catch (error) {
    log.error({ err: error }, "executor events pruning failed");
  }
}

/**
 * Ticks every cluster each `tickSec` until the returned function is called; prunes old
 * executor events at its first round and then hourly.
 */
function startTickTimer(tickSec: number, log: Logger): () => void {
  let isStopped = false;
  let timer: NodeJS.Timeout | undefined;
  let prunedAtMs = -Infinity;
  const loop = async (): Promise<void> => {
    try {
      await tickAllClusters();
    } catch (error) {
      log.error({ err: error }, "tick timer failed");
    }
    if (performance.now() - prunedAtMs >= PRUNE_EVERY_MS) {
      prunedAtMs = performance.now();
      await pruneEvents(log);
    }
    if (!isStopped) timer = setTimeout(() => void loop(), tickSec * 1000);
  };
  timer = setTimeout(() => void loop(), tickSec * 1000);
  return () => {
    isStopped = true;
    clearTimeout(timer);
  };
}

/** Starts this replica's part: the lease election and, while it leads, the leader's work. */
export async function startReplica(): Promise<void> {
  if (state.allotReplicaStarted) return;
  state.allotReplicaStarted = true;
  const log = getLogger();
  const speed = liveSpeed(process.env, isDemoMode());
  const clockSpeed = speed > 0 ? speed : 1;
  const tickSec = tickSeconds();
  // Each lead gets a generation; losing the lease ends it, so work still starting stops too.
  let generation = 0;
  let stopTimer = (): void => undefined;
  let stopExecutor = (): void => undefined;

  async function lead(lease: HeldLease): Promise<void> {
    const mine = (generation += 1);
    const isResuming = wasLeaseVacant({
      dbNowMs: lease.dbNow.getTime(),
      previousExpiresAtMs: lease.previous?.expiresAt.getTime() ?? null,
    });
    await setClockSpeed(clockSpeed, getDb(), { isResuming });
    if (mine !== generation) return;
    if (tickSec > 0) stopTimer = startTickTimer(tickSec, log);
    if (speed > 0) {
      const stop = await startDemoExecutor({
        seed: 2026,
        roundMs: 2000,
        log,
      });
      if (mine === generation) stopExecutor = stop;
      else stop();
    }
    log.info(
      { clockSpeed, tickSec, isDemoExecutorOn: speed > 0 },
      `leader: clock at ${clockSpeed}x, tick timer ${tickSec > 0 ? `every ${tickSec} s` : "off"}, ` +
        `demo executor ${speed > 0 ? "on" : "off"}`,
    );
  }

  function lose(): void {
    generation += 1;
    stopTimer();
    stopExecutor();
    stopTimer = () => undefined;
    stopExecutor = () => undefined;
  }

  await startLeaderElection({
    db: getLeaseDb(),
    log,
    lease: LEADER_LEASE,
    onLead: lead,
    onLose: lose,
    // ALLOT_LEASE_TTL_SEC (default 30 s: renewals every 10 s, a safety margin of 5 s).
    ...leaseTimes(leaseTtlSec() ?? LEASE_TTL_SEC),
  });
}
