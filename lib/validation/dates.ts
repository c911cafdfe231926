// Strict dates at the edge (docs/decisions/081-input-at-the-edge.md). Date.parse rolls
// impossible days over (2026-02-30 is 2 March), Date.UTC maps years 0-99 to 1900-1999
// ("0050-01" was served as 1950-01), and years far out (0000, 9999) broke queries or reached a
// page as raw database text. Here a day, a month or an instant is taken only when it exists
// as written and its year is from MIN_YEAR to MAX_YEAR. All times are UTC.
import { z } from "zod";
import { MONTH_NAMES } from "../format";
import { lineString } from "../text";

/** The years the API takes: wide enough for any history or plan, narrow enough for any column. */
export const MIN_YEAR = 2000;
export const MAX_YEAR = 2100;

const DAY_SHAPE = "Use a date as YYYY-MM-DD, e.g. 2026-10-01.";
const MONTH_SHAPE = "Use a month as YYYY-MM, e.g. 2026-10.";
const INSTANT_SHAPE =
  'Give a date such as "2026-11-01" or an ISO time such as "2026-11-01T08:00Z".';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

const pad2 = (value: number) => String(value).padStart(2, "0");

/** Why year / month (/ day) is no date the API takes, or null. */
function calendarProblem(year: number, month: number, day?: number): string | null {
  if (year < MIN_YEAR || year > MAX_YEAR) return `Use a year from ${MIN_YEAR} to ${MAX_YEAR}.`;
  if (month < 1 || month > 12) return `There is no month ${pad2(month)}: months run from 01 to 12.`;
  if (day === undefined) return null;
  const days = daysInMonth(year, month);
  if (day < 1 || day > days) {
    return `There is no day ${pad2(day)} in ${MONTH_NAMES[month - 1]} ${year}: it has ${days} days.`;
  }
  return null;
}

/**
 * Why `text` is no day (YYYY-MM-DD), or null when it is one.
 *
 * @example dayProblem("2026-02-30") // "There is no day 30 in February 2026: it has 28 days."
 */
export function dayProblem(text: string, shapeMessage = DAY_SHAPE): string | null {
  const match = DAY.exec(text);
  if (!match) return shapeMessage;
  return calendarProblem(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** "YYYY-MM-DD" -> epoch ms of that UTC midnight, or null (see dayProblem). */
export function parseDayMs(text: string): number | null {
  if (dayProblem(text) !== null) return null;
  const [year, month, day] = text.split("-").map(Number);
  return Date.UTC(year!, month! - 1, day!);
}

/**
 * Why `text` is no calendar month (YYYY-MM), or null when it is one.
 *
 * @example monthProblem("0050-01") // "Use a year from 2000 to 2100."
 */
export function monthProblem(text: string, shapeMessage = MONTH_SHAPE): string | null {
  const match = MONTH.exec(text);
  if (!match) return shapeMessage;
  return calendarProblem(Number(match[1]), Number(match[2]));
}

/**
 * Why `text` is no instant, or null: a day (its UTC midnight) or a day and a time
 * `THH:MM[:SS[.sss]]` with `Z` or an offset `±HH:MM`; a time without either is UTC.
 *
 * @example instantProblem("2026-10-01T24:00Z") // "There is no hour 24: hours run from 00 to 23."
 */
export function instantProblem(text: string, shapeMessage = INSTANT_SHAPE): string | null {
  const match = INSTANT.exec(text);
  if (!match) return shapeMessage;
  const [, year, month, day, hour, minute, second, , zone] = match;
  const dateProblem = calendarProblem(Number(year), Number(month), Number(day));
  if (dateProblem) return dateProblem;
  if (hour !== undefined && Number(hour) > 23) {
    return `There is no hour ${hour}: hours run from 00 to 23.`;
  }
  if (Number(minute ?? 0) > 59 || Number(second ?? 0) > 59) {
    return "Minutes and seconds run from 00 to 59.";
  }
  if (zone && zone !== "Z" && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) {
    return `There is no time zone offset ${zone}.`;
  }
  return null;
}

/** An instant (see instantProblem) -> epoch ms, or null. */
export function parseInstantMs(text: string): number | null {
  if (instantProblem(text) !== null) return null;
  const [, year, month, day, hour = "0", minute = "0", second = "0", fraction = "", zone = "Z"] =
    INSTANT.exec(text)!;
  const utcMs = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Number(fraction.padEnd(3, "0")),
  );
  if (zone === "Z") return utcMs;
  const offsetMin = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4));
  return utcMs - (zone.startsWith("-") ? -1 : 1) * offsetMin * 60_000;
}

function textSchema(problemOf: (text: string) => string | null): z.ZodString {
  return lineString()
    .trim()
    .check((context) => {
      const problem = problemOf(context.value);
      // continue: false - the object's refinements (a range's order, its length) see no bad day.
      if (problem) {
        context.issues.push({
          code: "custom",
          message: problem,
          input: context.value,
          continue: false,
        });
      }
    });
}

/** A day field, YYYY-MM-DD (trimmed): refuses impossible days and years outside the range. */
export function dayString(shapeMessage = DAY_SHAPE): z.ZodString {
  return textSchema((text) => dayProblem(text, shapeMessage));
}

/** A calendar month field, YYYY-MM (trimmed). */
export function monthString(shapeMessage = MONTH_SHAPE): z.ZodString {
  return textSchema((text) => monthProblem(text, shapeMessage));
}

/** An instant field (see instantProblem), as a Date. */
export function instantDate(shapeMessage = INSTANT_SHAPE) {
  return textSchema((text) => instantProblem(text, shapeMessage)).transform(
    (text) => new Date(parseInstantMs(text)!),
  );
}
