import "server-only";
import { reanchor, simNowMs, type ClockAnchor } from "../../clock";
import { getDb } from "./app-db";
import { readClockAnchor } from "./app-clock";
import type { Db } from "./client";

// Replicas re-read the anchor now and then; it only changes when a server starts.
const CACHE_MS = 2000;
const cache = globalThis as unknown as { allotClock?: { anchor: ClockAnchor; readAtMs: number } };

/** The app clock's current time (sim time: accelerated in the demo, real time otherwise). */
export async function getNow(db: Db = getDb()): Promise<Date> {
  const realMs = Date.now();
  const cached = cache.allotClock;
  if (cached && realMs - cached.readAtMs < CACHE_MS) {
    return new Date(Math.floor(simNowMs(cached.anchor, realMs)));
  }
  const anchor = (await readClockAnchor(db)) ?? { realMs, simMs: realMs, speed: 1 };
  cache.allotClock = { anchor, readAtMs: realMs };
  return new Date(Math.floor(simNowMs(anchor, realMs)));
}

/**
 * Sets the clock's speed from now on, continuing from the current sim time (when a replica takes
 * the leader lease). With `isResuming` (nobody drove the demo for a while) an accelerated clock
 * first goes back to the last tick, so a demo pauses while no server runs it.
 */
export async function setClockSpeed(
  speed: number,
  db: Db = getDb(),
  { isResuming = true }: { isResuming?: boolean } = {},
): Promise<ClockAnchor> {
  const realMs = Date.now();
  const previous = await readClockAnchor(db);
  let anchor = reanchor(previous, realMs, speed);
  if (isResuming && previous && previous.speed > 1) {
    // An accelerated demo pauses while its server is down: resume from its last tick rather
    // than from hours of accelerated time nobody watched (never before the previous anchor).
    const last = await db.cluster.aggregate({ _max: { tickedAt: true } });
    const lastMs = last._max.tickedAt?.getTime();
    if (lastMs !== undefined && lastMs < anchor.simMs) {
      anchor = { realMs, simMs: Math.max(lastMs, previous.simMs), speed };
    }
  }
  const data = { realAt: new Date(anchor.realMs), simAt: new Date(anchor.simMs), speed };
  await db.appClock.upsert({ where: { id: 1 }, create: { id: 1, ...data }, update: data });
  cache.allotClock = { anchor, readAtMs: realMs };
  return anchor;
}
