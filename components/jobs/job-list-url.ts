// Links of the jobs list: the current query with some fields changed, defaults left out, so a
// shared or bookmarked URL stays short and the back button walks through filters.
import { formatInteger } from "@/lib/format";
import {
  defaultDirection,
  DEFAULT_PAGE_SIZE,
  type JobListQuery,
  type JobSort,
} from "@/lib/validation/job-list";

const FILTER_KEYS = ["state", "cluster", "budget", "q", "user"] as const;

/**
 * The href of the list for `query` with `changes` applied (filters reset the page to 1 unless it
 * is given).
 *
 * @example jobListHref({ sort: "submitted", dir: "desc", page: 3, perPage: 50 }, { state: "running" }) // "/jobs?state=running"
 */
export function jobListHref(
  query: JobListQuery,
  changes: Partial<Record<keyof JobListQuery, string | number | undefined>>,
  base = "/jobs",
): string {
  const next = { ...query, ...changes } as Record<string, string | number | undefined>;
  const isFilterChange =
    FILTER_KEYS.some((key) => key in changes) || "perPage" in changes || "sort" in changes;
  if (isFilterChange && !("page" in changes)) next.page = 1;
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = next[key];
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const sort = (next.sort ?? "submitted") as JobSort;
  if (sort !== "submitted") params.set("sort", sort);
  if (next.dir !== undefined && next.dir !== defaultDirection(sort))
    params.set("dir", String(next.dir));
  if (next.perPage !== undefined && next.perPage !== DEFAULT_PAGE_SIZE)
    params.set("perPage", String(next.perPage));
  if (next.page !== undefined && next.page !== 1) params.set("page", String(next.page));
  const text = params.toString();
  return text ? `${base}?${text}` : base;
}

/** The link of a column header: its sort, or the other direction when it is the current one. */
export function sortHref(query: JobListQuery, sort: JobSort): string {
  if (query.sort !== sort) return jobListHref(query, { sort, dir: undefined });
  return jobListHref(query, { sort, dir: query.dir === "asc" ? "desc" : "asc" });
}

/** "Showing 51–100 of 1,234" (en dash), or "Showing 0 of 0". */
export function formatShowing(page: number, perPage: number, shown: number, total: number): string {
  if (shown === 0) return `Showing 0 of ${formatInteger(total)}`;
  const from = (page - 1) * perPage + 1;
  return `Showing ${formatInteger(from)}–${formatInteger(from + shown - 1)} of ${formatInteger(total)}`;
}
