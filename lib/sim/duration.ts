/** Seconds per unit accepted in scenario durations. */
const UNIT_SEC: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

const DURATION_PATTERN = /^(\d+(?:\.\d+)?)(s|m|h|d|w)$/;

/** Whole units, largest first, each at most once: `1h30m`, `2d12h`, `1w2d`. */
const COMPOUND_PATTERN = /^(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/** SLURM's time forms with a colon or a dash: `m:s`, `h:m:s`, `d-h`, `d-h:m`, `d-h:m:s`. */
const SLURM_PATTERN = /^(?:(\d+)-(\d+)(?::(\d+)(?::(\d+))?)?|(\d+):(\d+)(?::(\d+))?)$/;

/**
 * The longest duration a scenario or a command's flag may give: five years. The simulator keeps
 * hourly figures over its whole run; a million-day horizon or job would exhaust memory long
 * before it said anything (the "year" benchmark is 366 days).
 */
export const MAX_DURATION_SEC = 5 * 366 * 86_400;

/** A duration as a scenario writes it: seconds, or a string such as `"90s"`, `"8h"`, `"1h30m"`. */
export type DurationInput = number | string;

/**
 * Whether a duration is written as a number alone (`"90"`): seconds to Allot, minutes to sbatch.
 *
 * @example isBareNumber(" 90 ") // true
 */
export function isBareNumber(text: string): boolean {
  return /^\d+(?:\.\d+)?$/.test(text.trim());
}

/**
 * Parses a scenario duration into seconds.
 *
 * Numbers are seconds; strings are a non-negative decimal and a unit (`s`, `m`, `h`, `d`, `w`),
 * whole units together (`1h30m`), or SLURM's `--time` forms with a colon or a dash (`1:30:00`,
 * `2-12`, `2-12:30`; `90:00` is ninety minutes). A bare number is seconds, not SLURM's minutes.
 * Returns `null` for anything else (negative, NaN, unknown unit), so callers can report it.
 *
 * @example parseDurationSec("15m") // 900
 * @example parseDurationSec("1:30:00") // 5400
 * @example parseDurationSec(90) // 90
 */
export function parseDurationSec(input: DurationInput): number | null {
  if (typeof input === "number") {
    return Number.isFinite(input) && input >= 0 ? input : null;
  }
  const trimmed = input.trim();
  if (isBareNumber(trimmed)) return Number(trimmed);
  const match = DURATION_PATTERN.exec(trimmed);
  if (match) {
    const [, amount, unit] = match;
    const unitSec = UNIT_SEC[unit ?? ""];
    return amount === undefined || unitSec === undefined ? null : Number(amount) * unitSec;
  }
  return parseCompoundSec(trimmed) ?? parseSlurmTimeSec(trimmed);
}

const sumOf = (parts: (string | undefined)[], unitsSec: number[]): number =>
  parts.reduce((sum, part, i) => sum + Number(part ?? 0) * unitsSec[i]!, 0);

/**
 * `1h30m`, `2d12h`, and `2h 05m` as tables print it: whole numbers of units, largest first;
 * null for anything else.
 */
function parseCompoundSec(text: string): number | null {
  const compact = /^(?:\d+[wdhms]\s*)+$/.test(text) ? text.replace(/\s+/g, "") : text;
  const match = COMPOUND_PATTERN.exec(compact);
  if (!match || compact === "") return null;
  return sumOf(match.slice(1), [604_800, 86_400, 3600, 60, 1]);
}

/** SLURM's `--time` forms that have a colon or a dash (`1:30:00`, `2-12`); null otherwise. */
function parseSlurmTimeSec(text: string): number | null {
  const match = SLURM_PATTERN.exec(text);
  if (!match) return null;
  const [, days, hours, minutes, seconds, m, s, hs] = match;
  if (days !== undefined) return sumOf([days, hours, minutes, seconds], [86_400, 3600, 60, 1]);
  // Two parts are minutes:seconds, three are hours:minutes:seconds, as in sbatch.
  return hs === undefined ? sumOf([m, s], [60, 1]) : sumOf([m, s, hs], [3600, 60, 1]);
}

/**
 * Formats seconds as the shortest exact scenario duration: `"7d"`, `"8h"`, `"15m"`, `"90s"`,
 * or a fractional number of seconds when no unit divides it.
 *
 * @example formatDurationSec(28_800) // "8h"
 * @example formatDurationSec(90) // "90s"
 */
export function formatDurationSec(seconds: number): string {
  if (!Number.isInteger(seconds)) return `${seconds}s`;
  for (const unit of ["d", "h", "m"] as const) {
    const unitSec = UNIT_SEC[unit] ?? 1;
    if (seconds !== 0 && seconds % unitSec === 0) return `${seconds / unitSec}${unit}`;
  }
  return `${seconds}s`;
}

/**
 * Formats seconds for people: `"2h 05m"`, `"3d 4h"`, `"45s"`. Lossy; for tables only.
 *
 * @example formatHumanDuration(7_500) // "2h 05m"
 */
export function formatHumanDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  if (s < 86_400) {
    return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  }
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}
