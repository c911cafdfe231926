// The app clock's anchor as stored (lib/clock.ts), readable from scripts as well as the server
// (lib/data/db/clock.ts caches it for the app).
import { simNowMs, type ClockAnchor } from "../../clock";
import type { Db } from "./client";

/** The stored anchor, or null before any server set the clock. */
export async function readClockAnchor(db: Db): Promise<ClockAnchor | null> {
  const row = await db.appClock.findUnique({ where: { id: 1 } });
  return row
    ? { realMs: row.realAt.getTime(), simMs: row.simAt.getTime(), speed: row.speed }
    : null;
}

/** The app clock's time now, uncached (real time before any server set the clock). */
export async function readAppNow(db: Db, realMs: number = Date.now()): Promise<Date> {
  const anchor = await readClockAnchor(db);
  return new Date(Math.floor(anchor ? simNowMs(anchor, realMs) : realMs));
}
