// The one module of number and time formats, shared by the pages, the charts and the CLI (en-US
// grouping; the UI's language is English; times in UTC). The engine keeps its own sentence
// formats (lib/engine/format-time.ts), and the simulator its scenario durations. Also the
// month names. Node lists are the engine's (one writer for its sentences, the pages and the CLI).
export { formatHostList, formatNodeList } from "./engine/node-list";

/**
 * A number with thousands separators and fixed decimals, the same on every machine.
 *
 * @example formatNumber(8584.8) // "8,585"
 * @example formatNumber(-1234.56, 1) // "-1,234.6"
 */
export function formatNumber(value: number, decimals = 0): string {
  const [whole, fraction] = Math.abs(value).toFixed(decimals).split(".");
  const grouped = (whole ?? "0").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${value < 0 ? "-" : ""}${grouped}${fraction ? `.${fraction}` : ""}`;
}

/** 8584.8 -> "8,585": counts, GPUs, GPU-hours in tables. */
export function formatInteger(value: number): string {
  return formatNumber(value, 0);
}

/**
 * GPU-hours in a table's cell: whole from 10 up, one decimal under 10 (and above 0), so that a
 * budget owed 0.4 GPU-hours does not read "0" beside a fulfilment of 67%.
 *
 * @example formatGpuHoursNumber(1234.4) // "1,234"; formatGpuHoursNumber(0.43) // "0.4"
 */
export function formatGpuHoursNumber(gpuHours: number): string {
  const isSmall = gpuHours !== 0 && Math.abs(gpuHours) < 9.95;
  return formatNumber(gpuHours, isSmall ? 1 : 0);
}

/** GPU-hours as charts' tooltips show them: 1234.4 -> "1,234 GPU-h". */
export function formatGpuHours(gpuHours: number): string {
  return `${formatInteger(gpuHours)} GPU-h`;
}

/** 0.3512 -> "35.1%" (two decimals below 10%, so small shares stay visible). */
export function formatPercent(fraction: number): string {
  const percent = fraction * 100;
  const digits = percent !== 0 && Math.abs(percent) < 10 ? 2 : 1;
  return `${percent.toFixed(digits)}%`;
}

/**
 * A fulfilment (docs/fulfilment.md) as {@link formatPercent} shows it, except that one below 1
 * never reads "100.0%" (see {@link formatFulfilment}): the review's figures.
 *
 * @example formatFulfilmentPercent(0.9996) // "99.9%"
 * @example formatFulfilmentPercent(0.052) // "5.20%"
 */
export function formatFulfilmentPercent(fraction: number): string {
  return shortOfFull(fraction, formatPercent(fraction));
}

/** `text` for `fraction`, except "99.9%" where a fraction below 1 rounds to "100.0%". */
function shortOfFull(fraction: number, text: string): string {
  return fraction < 1 && text === "100.0%" ? "99.9%" : text;
}

/**
 * A share with one decimal, for results side by side; `missing` where there is none.
 *
 * @example formatShare(0.9731) // "97.3%"
 * @example formatShare(null) // "–"
 */
export function formatShare(fraction: number | null, missing = "–"): string {
  return fraction === null ? missing : `${(fraction * 100).toFixed(1)}%`;
}

/**
 * A fulfilment (docs/fulfilment.md) as {@link formatShare} shows it, except that one below 1
 * never reads "100.0%": a lab at 0.9996 beside budgets at 97.3% would read as every budget
 * having received all its due. Exactly 1 is "100.0%". Used by the CLI and the browser alike.
 *
 * @example formatFulfilment(0.9996) // "99.9%"
 * @example formatFulfilment(1) // "100.0%"
 * @example formatFulfilment(null) // "–"
 */
export function formatFulfilment(fraction: number | null, missing = "–"): string {
  return fraction === null ? missing : shortOfFull(fraction, formatShare(fraction));
}

/**
 * A level fair-share (LF) in the CLI's tables, as `sshare -l` shows it: "-" when there is none
 * (the root), "inf" for a budget with no usage, else four significant digits, and from 1,000 up
 * a whole number with separators: a few seconds of use beside busy siblings gives an LF near
 * 90,000, which toPrecision writes "9.027e+4".
 *
 * @example formatLevelFairShare(1.07712) // "1.077"
 * @example formatLevelFairShare(90_270.4) // "90,270"
 * @example formatLevelFairShare("inf") // "inf"
 */
export function formatLevelFairShare(value: number | "inf" | null | undefined): string {
  if (value === null || value === undefined) return "-";
  if (value === "inf" || value === Infinity) return "inf";
  return value >= 1000 ? formatNumber(value) : value.toPrecision(4);
}

/**
 * A usage ratio (usage over share, 1 = used exactly its share) as the CLI's tables print it:
 * three decimals, "-" for a budget owed nothing (no share to measure usage against).
 *
 * @example formatUsageRatio(0.02391) // "0.024"
 * @example formatUsageRatio(null) // "-"
 */
export function formatUsageRatio(value: number | null): string {
  return value === null ? "-" : value.toFixed(3);
}

/** Progress or a usage ratio in whole percent: 0.426 -> "43%". */
export function formatWholePercent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
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

/** A weight as typed: no trailing zeros, 4 decimals, and never "0" for a weight above 0. */
export function formatWeight(weight: number): string {
  if (Number.isInteger(weight)) return String(weight);
  const rounded = Number(weight.toFixed(4));
  return rounded === 0 ? String(Number(weight.toPrecision(4))) : String(rounded);
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

/**
 * A wait in one unit with at most one decimal, for tables of waits (p50, p90).
 *
 * @example formatWait(45) // "45 s"
 * @example formatWait(12_600) // "3.5 h"
 * @example formatWait(181_440) // "2.1 d"
 */
export function formatWait(sec: number): string {
  if (sec < 60) return `${Math.round(sec)} s`;
  if (sec < 3600) return `${Math.round(sec / 60)} min`;
  if (sec < DAY_SEC) return `${(sec / 3600).toFixed(sec < 36_000 ? 1 : 0)} h`;
  return `${(sec / DAY_SEC).toFixed(1)} d`;
}
