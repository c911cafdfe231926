// The period of a budget review (docs/fulfilment.md): whole UTC days, a calendar month by
// default. Pure: "now" is an argument.
import { MONTH_NAMES } from "../format";

const DAY_SEC = 86_400;

/** A review period: [fromSec, toSec) in epoch seconds, whole UTC days. */
export type ReviewPeriod = {
  fromSec: number;
  /** Exclusive: midnight after the last day. */
  toSec: number;
  /** "2026-10" when the period is exactly that calendar month, else null. */
  month: string | null;
  /** First and last day, inclusive, as YYYY-MM-DD. */
  fromDate: string;
  toDate: string;
};

function pad2(value: number): string {
  return String(value).padStart(2, "0");
}

/**
 * Epoch seconds of a UTC midnight. Unlike Date.UTC, years 0-99 stay themselves (Date.UTC(50, 0)
 * is 1950); the month and day may overflow (month 12 is January of the next year).
 */
function utcSec(year: number, monthIndex: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime() / 1000;
}

/** Epoch seconds -> "YYYY-MM-DD" (UTC). */
export function toIsoDate(sec: number): string {
  const date = new Date(sec * 1000);
  const year = String(date.getUTCFullYear()).padStart(4, "0");
  return `${year}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}`;
}

/** "YYYY-MM-DD" -> epoch seconds of that UTC midnight, or null if it is no real date. */
export function parseIsoDate(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const sec = utcSec(year, month - 1, day);
  const date = new Date(sec * 1000);
  const isReal =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return isReal ? sec : null;
}

function periodOf(fromSec: number, toSec: number): ReviewPeriod {
  const from = new Date(fromSec * 1000);
  const isMonth =
    from.getUTCDate() === 1 && utcSec(from.getUTCFullYear(), from.getUTCMonth() + 1, 1) === toSec;
  return {
    fromSec,
    toSec,
    month: isMonth ? toIsoDate(fromSec).slice(0, 7) : null,
    fromDate: toIsoDate(fromSec),
    toDate: toIsoDate(toSec - DAY_SEC),
  };
}

/**
 * A calendar month "YYYY-MM" (UTC), or null when the text is not one.
 *
 * @example monthPeriod("2026-10") // { fromSec: 1790812800, toSec: 1793491200, month: "2026-10", ... }
 */
export function monthPeriod(month: string): ReviewPeriod | null {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const monthIndex = Number(match?.[2]) - 1;
  if (!match || monthIndex < 0 || monthIndex > 11) return null;
  const year = Number(match[1]);
  return periodOf(utcSec(year, monthIndex, 1), utcSec(year, monthIndex + 1, 1));
}

/**
 * The days from `fromDate` to `toDate`, both included, or null when either is not a date or
 * the range runs backwards.
 *
 * @example datePeriod("2026-10-03", "2026-10-03") // one day: toSec = fromSec + 86400
 */
export function datePeriod(fromDate: string, toDate: string): ReviewPeriod | null {
  const fromSec = parseIsoDate(fromDate);
  const lastSec = parseIsoDate(toDate);
  if (fromSec === null || lastSec === null || lastSec < fromSec) return null;
  return periodOf(fromSec, lastSec + DAY_SEC);
}

/**
 * The last calendar month that has ended at `nowSec` (UTC): the review meeting's default.
 *
 * @example lastFullMonth(Date.UTC(2026, 10, 30) / 1000).month // "2026-10"
 */
export function lastFullMonth(nowSec: number): ReviewPeriod {
  const now = new Date(nowSec * 1000);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return periodOf(utcSec(year, month - 1, 1), utcSec(year, month, 1));
}

/** Days in the default period while the history does not yet cover a whole month. */
export const RECENT_DAYS = 30;

/**
 * The period a review or a what-if shows when none is asked for: the last full calendar month
 * (the monthly meeting's period) once the history covers it, else the last {@link RECENT_DAYS}
 * whole days, ending at the start of today (a new installation, or the demo's 35 days of
 * history in a month's first days, would otherwise open on a mostly empty month). Today is left
 * out like the current month: its figures are still changing. On an installation's first day,
 * when every hour with data is today's, the 30 days end with today instead, so the review does
 * not open empty.
 *
 * @param earliestDataSec the first hour with roll-ups, or null when there are none
 * @example defaultReviewPeriod(Date.UTC(2026, 10, 30, 13) / 1000, Date.UTC(2026, 9, 26) / 1000)
 * // 31 Oct 2026 – 29 Nov 2026
 */
export function defaultReviewPeriod(nowSec: number, earliestDataSec: number | null): ReviewPeriod {
  const month = lastFullMonth(nowSec);
  if (earliestDataSec !== null && earliestDataSec <= month.fromSec) return month;
  const todaySec = Math.floor(nowSec / DAY_SEC) * DAY_SEC;
  const isFirstDay = earliestDataSec !== null && earliestDataSec >= todaySec;
  const endSec = isFirstDay ? todaySec + DAY_SEC : todaySec;
  return periodOf(endSec - RECENT_DAYS * DAY_SEC, endSec);
}

/** Days in the period. */
export function periodDays(period: Pick<ReviewPeriod, "fromSec" | "toSec">): number {
  return Math.round((period.toSec - period.fromSec) / DAY_SEC);
}

/**
 * The period as people say it: "October 2026", or "3 Oct 2026 – 17 Oct 2026".
 *
 * @example formatPeriod(monthPeriod("2026-10")!) // "October 2026"
 */
export function formatPeriod(period: ReviewPeriod): string {
  const day = (text: string) => {
    const [year, month, date] = text.split("-").map(Number);
    return `${date} ${MONTH_NAMES[month! - 1]!.slice(0, 3)} ${year}`;
  };
  if (period.month) {
    const [year, month] = period.month.split("-").map(Number);
    return `${MONTH_NAMES[month! - 1]} ${year}`;
  }
  return period.fromDate === period.toDate
    ? day(period.fromDate)
    : `${day(period.fromDate)} – ${day(period.toDate)}`;
}
