// Number formats shared by pages (en-US grouping; the UI's language is English), and the
// month names.

const INTEGER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** 0.3512 -> "35.1%" (one decimal below 10%, so small shares stay visible). */
export function formatPercent(fraction: number): string {
  const percent = fraction * 100;
  const digits = percent !== 0 && Math.abs(percent) < 10 ? 2 : 1;
  return `${percent.toFixed(digits)}%`;
}

/** 8584.8 -> "8,585". */
export function formatInteger(value: number): string {
  return INTEGER.format(value);
}

/**
 * Budget counts that say what they count: leaves (the budgets jobs charge) and every node of
 * the tree, root and groups included.
 *
 * @example formatBudgetCounts(58, 68) // "58 leaf budgets, 68 nodes in the tree"
 */
export function formatBudgetCounts(leafCount: number, nodeCount: number): string {
  const leaves = `${formatInteger(leafCount)} leaf ${leafCount === 1 ? "budget" : "budgets"}`;
  return `${leaves}, ${formatInteger(nodeCount)} ${nodeCount === 1 ? "node" : "nodes"} in the tree`;
}

/** A weight as typed: no trailing zeros. */
export function formatWeight(weight: number): string {
  return Number.isInteger(weight) ? String(weight) : String(Number(weight.toFixed(4)));
}

const DAY_SEC = 86_400;

function pad2(value: number): string {
  return String(value).padStart(2, "0");
}

function toDate(at: number | string | Date): Date {
  if (at instanceof Date) return at;
  return typeof at === "number" ? new Date(Math.floor(at) * 1000) : new Date(at);
}

/** The clock every time on a page is read on, for the note beside them. */
export const CLOCK_NAME = "UTC";

/**
 * The date part of {@link formatDateTime}, for days (chart labels, a draft's day): UTC.
 *
 * @example formatDate(1_764_460_800) // "2025-11-30"
 */
export function formatDate(at: number | string | Date): string {
  const date = toDate(at);
  return `${date.getUTCFullYear()}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}`;
}

/**
 * The app's one date-time format, in UTC: epoch seconds, an ISO string or a Date.
 *
 * @example formatDateTime("2026-11-30T11:38:34Z") // "2026-11-30 11:38 UTC"
 */
export function formatDateTime(at: number | string | Date): string {
  const date = toDate(at);
  return `${formatDate(date)} ${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())} ${CLOCK_NAME}`;
}

/**
 * The one format of a moment on a scenario's own clock (simulations, what-ifs, `allot queue`
 * and `allot shares`): seconds from the scenario's start, day 1 being the first day.
 *
 * @example formatSimMoment(2 * 86_400 + 14 * 3600 + 5 * 60) // "day 3, 14:05"
 */
export function formatSimMoment(sec: number): string {
  const total = Math.max(0, Math.floor(sec));
  const day = Math.floor(total / DAY_SEC) + 1;
  const minutes = Math.floor((total % DAY_SEC) / 60);
  return `day ${day}, ${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
}

/**
 * Points in time for live views and sentences (epoch seconds, UTC): "14:05 UTC" on the same
 * day as `nowSec`, the full `formatDateTime` on another day.
 *
 * @example liveTimeFormatter(0)(3900) // "01:05 UTC"
 * @example liveTimeFormatter(0)(90000) // "1970-01-02 01:00 UTC"
 */
export function liveTimeFormatter(nowSec: number): (sec: number) => string {
  const today = Math.floor(nowSec / DAY_SEC);
  return (sec) => {
    if (Math.floor(sec / DAY_SEC) !== today) return formatDateTime(sec);
    const date = toDate(sec);
    return `${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())} ${CLOCK_NAME}`;
  };
}

/** A wait or a countdown: "45 s", "12 min", "3 h 05 min", "2 d 4 h". */
export function formatSpan(sec: number): string {
  const total = Math.max(0, Math.floor(sec));
  if (total < 60) return `${total} s`;
  if (total < 3600) return `${Math.floor(total / 60)} min`;
  if (total < DAY_SEC)
    return `${Math.floor(total / 3600)} h ${pad2(Math.floor((total % 3600) / 60))} min`;
  return `${Math.floor(total / DAY_SEC)} d ${Math.floor((total % DAY_SEC) / 3600)} h`;
}

/** English month names, January first. */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
