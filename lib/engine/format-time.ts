/** Turns seconds on the caller's epoch into text; explanations take one so the engine has no clock. */
export type TimeFormatter = (sec: number) => string;

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/**
 * The default time format: an offset from the epoch, for simulations whose clock starts at 0.
 * Whole minutes (rounded down); seconds only below one minute.
 *
 * @example formatOffset(7500) // "+2h05m"
 * @example formatOffset(273900) // "+3d04h05m"
 * @example formatOffset(42) // "+42s"
 */
export function formatOffset(sec: number): string {
  const sign = sec < 0 ? "-" : "+";
  const total = Math.floor(Math.abs(sec));
  if (total < MINUTE) return `${sign}${total}s`;
  const days = Math.floor(total / DAY);
  const hours = Math.floor((total % DAY) / HOUR);
  const minutes = Math.floor((total % HOUR) / MINUTE);
  if (days > 0) return `${sign}${days}d${pad2(hours)}h${pad2(minutes)}m`;
  if (hours > 0) return `${sign}${hours}h${pad2(minutes)}m`;
  return `${sign}${minutes}m`;
}

/**
 * Wall-clock "HH:MM" in UTC for Unix epoch seconds (the live service's clock).
 *
 * @example formatUtcClock(1_700_000_000) // "22:13"
 */
export function formatUtcClock(sec: number): string {
  const ofDay = ((Math.floor(sec) % DAY) + DAY) % DAY;
  return `${pad2(Math.floor(ofDay / HOUR))}:${pad2(Math.floor((ofDay % HOUR) / MINUTE))}`;
}

/**
 * A length of time for sentences: the two largest units, rounded down.
 *
 * @example formatDuration(7200) // "2 h"
 * @example formatDuration(5400) // "1 h 30 min"
 * @example formatDuration(90000) // "1 d 1 h"
 */
export function formatDuration(sec: number): string {
  const total = Math.max(0, Math.floor(sec));
  const units: [number, string][] = [
    [DAY, "d"],
    [HOUR, "h"],
    [MINUTE, "min"],
    [1, "s"],
  ];
  const parts: string[] = [];
  let rest = total;
  for (const [size, label] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length > 0) parts.push(`${count} ${label}`);
    if (parts.length === 2) break;
  }
  const shown = parts.filter((part) => !part.startsWith("0 "));
  return shown.length > 0 ? shown.join(" ") : "0 s";
}
