// The review's period, carried to the split editor so that "Try on the review period" replays
// the period the lead was reading (lib/validation/review.ts's query: month, or from and to, and
// a cluster), not the review's default one.
import { reviewQuerySchema } from "./review";
import { datePeriod, formatPeriod, monthPeriod } from "../reports/review-period";

/** A what-if's period as POST /api/v1/drafts/{id}/what-ifs takes it, with words for its button. */
export type TryPeriod = { from: string; to: string; clusters?: string[]; label: string };

/** The review query's keys: what the review link passes on and the budgets page reads back. */
export const REVIEW_QUERY_KEYS = ["month", "from", "to", "cluster"] as const;

/**
 * The review period `query` names (a month, or a range of days; a cluster or all), or null when
 * it names none or is not one the review accepts: the editor then tries the default period.
 *
 * @example tryPeriodOf({ month: "2026-11", cluster: "b300" })?.label // "November 2026 on b300"
 */
export function tryPeriodOf(query: Record<string, string | undefined>): TryPeriod | null {
  const parsed = reviewQuerySchema.safeParse(query);
  if (!parsed.success) return null;
  const { month, from, to, cluster } = parsed.data;
  const period = month ? monthPeriod(month) : from && to ? datePeriod(from, to) : null;
  if (!period) return null;
  return {
    from: new Date(period.fromSec * 1000).toISOString(),
    to: new Date(period.toSec * 1000).toISOString(),
    ...(cluster ? { clusters: [cluster] } : {}),
    label: `${formatPeriod(period)}${cluster ? ` on ${cluster}` : ""}`,
  };
}

/** The review query's keys found in `params`, as a query string ("" when none). */
export function reviewQueryString(params: Record<string, string | string[] | undefined>): string {
  const kept = new URLSearchParams();
  for (const key of REVIEW_QUERY_KEYS) {
    const value = params[key];
    const first = Array.isArray(value) ? value[0] : value;
    if (first) kept.set(key, first);
  }
  return kept.toString();
}
