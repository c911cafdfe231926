import type { Metadata } from "next";
import Link from "next/link";
import { PrintButton } from "@/components/review/print-button";
import { ReviewCharts } from "@/components/review/review-charts";
import { ReviewControls } from "@/components/review/review-controls";
import { ReviewHeadline } from "@/components/review/review-headline";
import { ReviewTable } from "@/components/review/review-table";
import "@/components/review/review.css";
import { getSessionUser } from "@/lib/auth";
import {
  getDefaultReviewPeriod,
  getReviewNowSec,
  getDraftBranchId,
  getReview,
  getReviewFocus,
} from "@/lib/data/review-page";
import { AppError } from "@/lib/errors";
import { formatPeriod, monthPeriod, type ReviewPeriod } from "@/lib/reports/review-period";
import { findReviewFocus, focusNoteOf, jobClassesOf } from "@/lib/reports/review-table";
import { reviewCoverageNote } from "@/lib/sentences/review-coverage";
import { reviewQuerySchema } from "@/lib/validation/review";

export const metadata: Metadata = { title: "Review" };
export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;

/** The query string that reproduces a period and cluster (page, CSV and JSON alike). */
function reviewSearch(period: ReviewPeriod, cluster: string | null): string {
  const params = new URLSearchParams(
    period.month ? { month: period.month } : { from: period.fromDate, to: period.toDate },
  );
  if (cluster) params.set("cluster", cluster);
  return params.toString();
}

function shiftMonth(month: string, by: number): string {
  const [year, index] = month.split("-").map(Number);
  const date = new Date(Date.UTC(year!, index! - 1 + by, 1));
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
}

export default async function ReviewPage({
  searchParams,
}: {
  searchParams: Promise<SearchParams>;
}) {
  const user = await getSessionUser();
  if (!user) return null; // the (app) layout redirects to sign-in
  const raw = Object.fromEntries(
    Object.entries(await searchParams).map(([key, value]) => [
      key,
      Array.isArray(value) ? value[0] : value,
    ]),
  );
  const parsed = reviewQuerySchema.safeParse(raw);
  const [review, focus, draftBranchId] = await Promise.all([
    parsed.success ? getReview(parsed.data).catch(keepAppError) : null,
    getReviewFocus(user.id),
    getDraftBranchId(user),
  ]);
  if (!parsed.success || review === null || review instanceof AppError) {
    const issues = parsed.success
      ? review instanceof AppError
        ? (review.issues ?? [{ path: "", message: review.message }])
        : []
      : parsed.error.issues.map((issue) => ({
          path: issue.path.join("."),
          message: issue.message,
        }));
    const period = await getDefaultReviewPeriod();
    return (
      <>
        <div className="page-head">
          <h1>Budget review</h1>
        </div>
        <div className="alert" role="alert">
          <p>This review cannot be shown:</p>
          <ul>
            {issues.map((issue) => (
              <li key={`${issue.path}:${issue.message}`}>
                {issue.path ? <strong>{issue.path}: </strong> : null}
                {issue.message}
              </li>
            ))}
          </ul>
          <Link href="/review">Open the default period ({formatPeriod(period)})</Link>
        </div>
      </>
    );
  }

  const { period, rows } = review;
  const search = reviewSearch(period, review.cluster);
  const clusterLabel = review.cluster ?? "All clusters";
  // Charts open on the viewer's branch: what they lead, else the project of their budget.
  const focusBranch =
    rows.find((row) => focus.leadIds.includes(row.id)) ??
    rows.find((row) => focus.memberIds.includes(row.id) && row.parentId !== null);
  // Only what the table marks is said to come first: a researcher who leads nothing has no branch.
  const focusNote = focusNoteOf(findReviewFocus(rows, focus.leadIds, focus.memberIds));
  const initialBranchId =
    (focusBranch?.isLeaf ? focusBranch.parentId : focusBranch?.id) ?? rows[0]?.id ?? "";
  const previous = period.month ? monthPeriod(shiftMonth(period.month, -1)) : null;
  const next = period.month ? monthPeriod(shiftMonth(period.month, 1)) : null;
  // An empty period may simply lie ahead (the clock is read only then).
  const isAhead = !review.hasData && period.fromSec > (await getReviewNowSec());
  const coverageNote = reviewCoverageNote(review.coverage);
  return (
    <div className="review-page">
      <div className="page-head section-head">
        <div>
          <h1>Budget review: {formatPeriod(period)}</h1>
          <p className="muted">
            {clusterLabel} · {period.fromDate} to {period.toDate} (UTC) · entitled GPU-hours are
            each hour&apos;s share of capacity under the weights then in force, capped by demand (
            <Link href="/docs/fulfilment.md">how these figures are counted</Link>).
          </p>
        </div>
        <div className="review-actions no-print">
          <a className="button" href={`/api/v1/reports/review.csv?${search}`} download>
            Download CSV
          </a>
          <a className="button" href={`/api/v1/reports/review?${search}`}>
            JSON
          </a>
          <PrintButton />
          {draftBranchId ? (
            // Leads go from the review to a draft of their branch's split, replayed on this period.
            <Link
              className="button"
              href={`/budgets/${encodeURIComponent(draftBranchId)}/drafts?${search}`}
            >
              Try a new split (what-if)
            </Link>
          ) : null}
        </div>
      </div>
      <div className="review-bar no-print">
        <ReviewControls
          key={search}
          month={period.month}
          fromDate={period.fromDate}
          toDate={period.toDate}
          cluster={review.cluster}
          clusters={review.clusters}
        />
        {previous && next ? (
          <nav className="month-steps" aria-label="Other months">
            <Link href={`/review?${reviewSearch(previous, review.cluster)}`}>
              ← {formatPeriod(previous)}
            </Link>
            <Link href={`/review?${reviewSearch(next, review.cluster)}`}>
              {formatPeriod(next)} →
            </Link>
          </nav>
        ) : null}
      </div>
      {review.hasData ? (
        <>
          {coverageNote ? (
            <p className="card coverage-note" role="note">
              {coverageNote}
            </p>
          ) : null}
          <ReviewHeadline headline={review.headline} clusterFigures={review.clusterFigures} />
          <section className="card review-table-card" aria-labelledby="table-heading">
            <h2 id="table-heading">Per budget</h2>
            <p className="muted small no-print">
              {focusNote ? `${focusNote} ` : null}Fulfilment below 95% is marked ▼. Waits are from
              submit to first start for jobs submitted in the period, p50 / p90 by job class.
            </p>
            <ReviewTable
              rows={rows}
              jobClasses={jobClassesOf(rows)}
              leadIds={focus.leadIds}
              memberIds={focus.memberIds}
            />
          </section>
          <ReviewCharts
            rows={rows}
            series={review.series}
            usageRatios={review.usageRatios}
            initialBranchId={initialBranchId}
          />
        </>
      ) : (
        <p className="card">
          {isAhead
            ? `${formatPeriod(period)} has not begun yet, so no usage is recorded for it; pick another period.`
            : `No usage was recorded for ${formatPeriod(period)}${review.cluster ? ` on ${review.cluster}` : ""}. Roll-ups start with the first hour the scheduler ran; pick another period.`}
        </p>
      )}
    </div>
  );
}

function keepAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  throw error;
}
