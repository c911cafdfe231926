// Epoch seconds, the engine's time unit on the live service, and back to Dates. Free of
// server-only imports: scripts (the seed, db:rollup) use it too.

/** Epoch seconds of a date. */
export function toSec(date: Date): number {
  return date.getTime() / 1000;
}

/** The date of epoch seconds (to the millisecond). */
export function fromSec(sec: number): Date {
  return new Date(Math.round(sec * 1000));
}
