// Started once per server process (instrumentation.ts): sets the app clock's speed, runs the
// tick timer and, in demo mode with a live speed above 0, the live driver.
import "server-only";
import { liveSpeed } from "../clock";
import { setClockSpeed } from "../data/clock";
import { tickAllClusters } from "../data/tick";
import { isDemoMode } from "../env";
import { getLogger } from "../log/logger";
import { startLiveDriver } from "./driver";

const state = globalThis as unknown as { allotLiveStarted?: boolean };

/** Real seconds between timer ticks: ALLOT_TICK_SEC, default 5; 0 turns the timer off. */
function tickSeconds(): number {
  const value = Number(process.env.ALLOT_TICK_SEC ?? 5);
  return Number.isFinite(value) && value >= 0 ? value : 5;
}

export async function startLive(): Promise<void> {
  if (state.allotLiveStarted) return;
  state.allotLiveStarted = true;
  const speed = liveSpeed(process.env, isDemoMode());
  await setClockSpeed(speed > 0 ? speed : 1);
  const tickSec = tickSeconds();
  if (tickSec > 0) {
    const timerLoop = async (): Promise<void> => {
      try {
        await tickAllClusters();
      } catch (error) {
        getLogger().error({ err: error }, "tick timer failed");
      }
      setTimeout(() => void timerLoop(), tickSec * 1000);
    };
    setTimeout(() => void timerLoop(), tickSec * 1000);
  }
  if (speed > 0) {
    const log = getLogger();
    await startLiveDriver({ seed: 2026, roundMs: 2000, log: (line) => log.info(line) });
  }
  getLogger().info(
    { clockSpeed: speed > 0 ? speed : 1, tickSec, isLiveDriverOn: speed > 0 },
    `live: clock at ${speed > 0 ? speed : 1}x, tick timer ${tickSec > 0 ? `every ${tickSec} s` : "off"}, ` +
      `live driver ${speed > 0 ? "on" : "off"}`,
  );
}
