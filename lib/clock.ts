// The app clock: live timestamps run on "sim time", which may run faster than real time in
// the demo. An anchor (realMs, simMs, speed) maps real time to sim time; it is persisted
// (lib/data/db/clock.ts) so every replica reads the same time. Pure: real time is an argument.

/** Sim time = simMs + (realMs - anchor.realMs) x speed. */
export type ClockAnchor = { realMs: number; simMs: number; speed: number };

/**
 * Sim milliseconds at real milliseconds `realMs`. Never earlier than the anchor itself, so the
 * clock does not go back when a replica's wall clock lags.
 *
 * @example simNowMs({ realMs: 0, simMs: 1000, speed: 60 }, 1000) // 61000
 */
export function simNowMs(anchor: ClockAnchor, realMs: number): number {
  return anchor.simMs + Math.max(0, realMs - anchor.realMs) * anchor.speed;
}

/**
 * A new anchor at `realMs` with another speed, continuing from the current sim time.
 *
 * @example reanchor({ realMs: 0, simMs: 0, speed: 60 }, 10, 1) // { realMs: 10, simMs: 600, speed: 1 }
 */
export function reanchor(anchor: ClockAnchor | null, realMs: number, speed: number): ClockAnchor {
  const simMs = anchor ? simNowMs(anchor, realMs) : realMs;
  return { realMs, simMs, speed };
}

/**
 * The live speed from the environment: ALLOT_LIVE_SPEED when set (0 turns the demo executor
 * off), else 60 in demo mode and 0 otherwise. The clock itself runs at this speed, or at 1x
 * when the driver is off.
 *
 * @example liveSpeed({ ALLOT_LIVE_SPEED: "120" }, true) // 120
 */
export function liveSpeed(env: Readonly<Record<string, string | undefined>>, isDemo: boolean) {
  const raw = env.ALLOT_LIVE_SPEED?.trim();
  if (raw) {
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || value > 10_000) {
      throw new Error(`ALLOT_LIVE_SPEED must be a number from 0 to 10000, got "${raw}".`);
    }
    return value;
  }
  return isDemo ? 60 : 0;
}
