import { z } from "zod";
import { datePeriod, monthPeriod, parseIsoDate, type ReviewPeriod } from "../reports/review-period";
import { dayString, monthString } from "./dates";
import { lineString } from "../text";

/** The longest review: a year (and a day, for leap years). */
export const MAX_REVIEW_DAYS = 366;

// Empty fields of a submitted form mean "not given".
const optionalText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" || value === null ? undefined : value), schema.optional());

const isoDate = dayString();

/**
 * The review's query (page search params, GET /api/v1/reports/review[.csv]): a calendar
 * month, or a from-to range of days (both included), or neither (the default period), and
 * optionally one cluster by name.
 */
export const reviewQuerySchema = z
  .object({
    month: optionalText(monthString()),
    from: optionalText(isoDate),
    to: optionalText(isoDate),
    cluster: optionalText(
      lineString().trim().min(1).max(100, "A cluster name has at most 100 characters."),
    ),
  })
  .superRefine((query, context) => {
    const issue = (path: string, message: string) =>
      context.addIssue({ code: "custom", path: [path], message });
    if (query.month !== undefined && (query.from !== undefined || query.to !== undefined)) {
      issue("month", "Give either a month or a from-to range, not both.");
      return;
    }
    if ((query.from === undefined) !== (query.to === undefined)) {
      issue(query.from === undefined ? "from" : "to", "A range needs both from and to.");
      return;
    }
    if (query.from === undefined || query.to === undefined) return;
    const fromSec = parseIsoDate(query.from);
    const toSec = parseIsoDate(query.to);
    if (fromSec === null || toSec === null) return; // reported by the field itself
    if (toSec < fromSec) issue("to", `The range ends (${query.to}) before it starts.`);
    else if ((toSec - fromSec) / 86_400 + 1 > MAX_REVIEW_DAYS) {
      issue("to", `A review covers at most ${MAX_REVIEW_DAYS} days.`);
    }
  });
export type ReviewQuery = z.infer<typeof reviewQuerySchema>;

/** The period a valid query asks for, or `fallback` (the default period, `loadDefaultPeriod`) when it names none. */
export function periodOfQuery(query: ReviewQuery, fallback: ReviewPeriod): ReviewPeriod {
  if (query.month !== undefined) return monthPeriod(query.month) ?? fallback;
  if (query.from !== undefined && query.to !== undefined) {
    return datePeriod(query.from, query.to) ?? fallback;
  }
  return fallback;
}
