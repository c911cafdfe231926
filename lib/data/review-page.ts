// The review page's view model (docs/fulfilment.md) over the one review loader,
// lib/data/review.ts loadPeriodReview: the table, headline, charts and CSV of a period.
import "server-only";
import { canEditBelow } from "./budget-access";
import { getDb } from "./db/app-db";
import type { PeriodReport } from "../reports/period-report";
import type { ReviewPeriod } from "../reports/review-period";
import {
  periodSeries,
  usageRatiosOf,
  type ClusterUsageRatios,
  type PeriodSeries,
} from "../reports/review-series";
import { reviewRows, type ReviewRow } from "../reports/review-table";
import { periodOfQuery, type ReviewQuery } from "../validation/review";
import { loadTreeAccess } from "./budget-access";
import type { Db } from "./db/client";
import { getNow } from "./db/clock";
import type { ClusterCoverage } from "../sentences/review-coverage";
import { loadDefaultPeriod, loadPeriodReview } from "./review";
import { createTickCache, createVersionMemo } from "./tick/tick-cache";
import type { SessionUser } from "./users";

/** How long an ended period's review is served before it is read again, if nothing wrote. */
const ENDED_REVIEW_MAX_AGE_MS = 60_000;
/** How long readers share one read of the review's version. */
const VERSION_REUSE_MS = 500;

/**
 * Reviews of ended periods, by period and cluster: they change only when a tick refreshes the
 * roll-ups or a budget edit rewrites the tree and its weights, so readers share one computation.
 */
const endedReviews = createTickCache<ReviewData>(ENDED_REVIEW_MAX_AGE_MS, { maxKeys: 24 });
const reviewVersions = createVersionMemo(VERSION_REUSE_MS);

export type ReviewClusterRef = { name: string; gpuType: string };

/** Everything the review page, its charts and its CSV show for one period and cluster choice. */
export type ReviewData = {
  period: ReviewPeriod;
  /** The cluster the review is limited to, or null for all clusters. */
  cluster: string | null;
  clusters: ReviewClusterRef[];
  headline: PeriodReport["headline"];
  clusterFigures: PeriodReport["clusters"];
  rows: ReviewRow[];
  series: PeriodSeries;
  /** Per cluster, at the period's end (or now, for a period still running). */
  usageRatios: ClusterUsageRatios[];
  /** Whether any roll-up hour fell in the period. */
  hasData: boolean;
  /** Per cluster of the review: the period's whole hours gone by, and those recorded. */
  coverage: ClusterCoverage[];
};

/**
 * The review of `period` on one cluster (by name) or all, through loadPeriodReview. An unknown
 * cluster is a 422 on the `cluster` field. `nowSec` (the app clock) bounds a period still
 * running: usage ratios are taken at min(period end, now's hour) and jobs still waiting count
 * their wait up to now.
 */
export async function loadReviewData(
  db: Db,
  options: { period: ReviewPeriod; cluster?: string; nowSec: number },
): Promise<ReviewData> {
  const { period } = options;
  const [review, clusters, live] = await Promise.all([
    loadPeriodReview(db, {
      fromSec: period.fromSec,
      toSec: period.toSec,
      cluster: options.cluster,
      nowSec: options.nowSec,
    }),
    db.cluster.findMany({ select: { name: true, gpuType: true }, orderBy: { name: "asc" } }),
    db.budgetNode.findMany({ where: { removedAt: null }, select: { id: true } }),
  ]);
  const { report } = review;
  return {
    period,
    cluster: review.cluster,
    clusters,
    headline: report.headline,
    clusterFigures: report.clusters,
    rows: reviewRows(report, review.activity, new Set(live.map((node) => node.id))),
    series: periodSeries(review.daily, period.fromSec, period.toSec),
    usageRatios: usageRatiosOf(review.standings),
    hasData: report.clusters.length > 0,
    coverage: review.coverage,
  };
}

/** The nodes `userId` leads and the leaves they are a member of: their part of the review. */
export async function getReviewFocus(
  userId: string,
  db: Db = getDb(),
): Promise<{ leadIds: string[]; memberIds: string[] }> {
  const [leads, members] = await Promise.all([
    db.budgetLead.findMany({ where: { userId }, select: { nodeId: true } }),
    db.budgetMember.findMany({ where: { userId }, select: { nodeId: true } }),
  ]);
  return { leadIds: leads.map((row) => row.nodeId), memberIds: members.map((row) => row.nodeId) };
}

/**
 * The branch `user` may re-split, for the review's what-if link: the highest live node they
 * lead (the root for an admin), or null when they lead none. With several separate branches,
 * the shallowest (then the first by id).
 */
export async function getDraftBranchId(user: SessionUser): Promise<string | null> {
  const access = await loadTreeAccess(getDb(), user);
  const mayEdit = (id: string | null) =>
    id !== null && canEditBelow(user, id, access.parentOf, access.leadNodeIds);
  const depthOf = (id: string) => {
    let depth = 0;
    for (let at = access.parentOf.get(id); at; at = access.parentOf.get(at)) depth += 1;
    return depth;
  };
  const tops = [...access.parentOf]
    .filter(([id, parentId]) => mayEdit(id) && !mayEdit(parentId))
    .map(([id]) => ({ id, depth: depthOf(id) }))
    .sort((a, b) => a.depth - b.depth || a.id.localeCompare(b.id));
  return tops[0]?.id ?? null;
}

/**
 * The review a validated query asks for, by the app clock (`loadDefaultPeriod` by default). An
 * ended period's review does not depend on the clock: it is computed once per version of what
 * it reads (ticks, budget edits) and shared by every reader; a period still running is read anew.
 */
export async function getReview(query: ReviewQuery): Promise<ReviewData> {
  const db = getDb();
  const nowSec = Math.floor((await getNow(db)).getTime() / 1000);
  const period = periodOfQuery(query, await loadDefaultPeriod(db, nowSec));
  const load = () => loadReviewData(db, { period, cluster: query.cluster, nowSec });
  if (nowSec < period.toSec) return load();
  const key = `${period.fromSec}:${period.toSec}:${query.cluster ?? ""}`;
  const version = (await reviewVersions.get("", () => readReviewVersion(db))) ?? "";
  return endedReviews.get(key, version, load);
}

/** What a review reads changes with: the clusters' ticks (roll-ups) and the tree's edits. */
async function readReviewVersion(db: Db): Promise<string | null> {
  const [row] = await db.$queryRaw<{ version: string | null }[]>`
    SELECT concat_ws('|',
      (SELECT string_agg(name || '@' || coalesce("tickedAt"::text, '-'), ',' ORDER BY name)
         FROM clusters),
      (SELECT count(*) || '@' || coalesce(max("updatedAt")::text, '-') FROM budget_nodes),
      (SELECT count(*) || '@' || coalesce(max(at)::text, '-') FROM weight_changes)) AS version`;
  return row?.version ?? null;
}

/** Now on the app's clock, in epoch seconds (a period after it has not begun). */
export async function getReviewNowSec(): Promise<number> {
  return Math.floor((await getNow(getDb())).getTime() / 1000);
}

/** The default period by the app clock, for the page's controls and the what-if form. */
export async function getDefaultReviewPeriod(): Promise<ReviewPeriod> {
  return loadDefaultPeriod(getDb(), await getReviewNowSec());
}

/** "allot-review-2026-10-h100.csv": the period (month or days) and the cluster, if one. */
export function reviewFileName(
  review: Pick<ReviewData, "period" | "cluster">,
  ext: string,
): string {
  const { period } = review;
  const when = period.month ?? `${period.fromDate}_${period.toDate}`;
  const where = review.cluster ? `-${review.cluster.replace(/[^a-z0-9-]+/gi, "-")}` : "";
  return `allot-review-${when}${where}.${ext}`;
}
