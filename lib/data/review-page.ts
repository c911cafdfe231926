// The review page's data (DESIGN section 5): hourly roll-ups, the weights in force and the
// queue waits of a period, turned into the table, headline, charts and CSV by lib/reports.
// Reads a fixed handful of queries whatever the size of the tree or the period.
import "server-only";
import { getDb } from "../db";
import { Prisma } from "../generated/prisma/client";
import { AppError } from "../errors";
import { buildPeriodReport, type ClusterHour, type PeriodReport } from "../reports/period-report";
import { lastFullMonth, type ReviewPeriod } from "../reports/review-period";
import {
  buildPeriodSeries,
  usageRatiosAt,
  type ClusterUsageRatios,
  type PeriodSeries,
} from "../reports/review-series";
import { reviewRows, type ReviewRow } from "../reports/review-table";
import { rollUpCounts, summariseWaits } from "../reports/wait-stats";
import { buildTreeEpochs, type TreeEpoch } from "../reports/weights-in-force";
import { periodOfQuery, type ReviewQuery } from "../validation/review";
import type { Db } from "./client";
import { getNow } from "./clock";

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
};

type HourRow = {
  cluster: string;
  budgetId: string;
  hourSec: number;
  demandGpuSec: number;
  allocatedGpuSec: number;
  unallocatedGpuSec: number;
  capacityGpuSec: number;
  preemptions: number;
};

const HOUR_SEC = 3600;

/** Epoch seconds as the UTC timestamp the columns hold, whatever the session's time zone. */
const utc = (sec: number) => Prisma.sql`(to_timestamp(${sec}::float8) AT TIME ZONE 'UTC')`;

/**
 * The review of `period` on one cluster (by name) or all. An unknown cluster is a 422 on the
 * `cluster` field. `nowSec` (the app clock) bounds a period still running: usage ratios are
 * taken at min(period end, now) and jobs still waiting count their wait up to now.
 */
export async function loadReviewData(
  db: Db,
  options: { period: ReviewPeriod; cluster?: string; nowSec: number },
): Promise<ReviewData> {
  const { period, nowSec } = options;
  const clusters = await db.cluster.findMany({
    select: { id: true, name: true, gpuType: true, lookbackSec: true },
    orderBy: { name: "asc" },
  });
  const chosen = options.cluster ? clusters.find((c) => c.name === options.cluster) : undefined;
  if (options.cluster && !chosen) {
    throw new AppError("validation_failed", "The request has invalid fields.", [
      { path: "cluster", message: `No cluster is named "${options.cluster}".` },
    ]);
  }
  const inScope = chosen ? [chosen] : clusters;
  const ratioAtSec = Math.min(period.toSec, Math.floor(nowSec / HOUR_SEC) * HOUR_SEC);
  const lookbackSec = Math.max(0, ...inScope.map((cluster) => cluster.lookbackSec));
  const readFromSec = Math.min(period.fromSec, ratioAtSec - lookbackSec);
  const clusterFilter = chosen ? Prisma.sql`AND "clusterId" = ${chosen.id}` : Prisma.empty;

  const [nodes, weights, hourRows, waitRows] = await Promise.all([
    db.budgetNode.findMany({
      select: { id: true, parentId: true, name: true, removedAt: true },
      orderBy: [{ createdAt: "asc" }, { name: "asc" }],
    }),
    db.weightChange.findMany({
      select: { nodeId: true, at: true, weightAfter: true },
      orderBy: [{ at: "asc" }, { id: "asc" }],
    }),
    db.$queryRaw<HourRow[]>`
      SELECT c.name AS cluster, u."budgetId",
        EXTRACT(EPOCH FROM u."hourStart")::float8 AS "hourSec",
        u."demandGpuSec", u."allocatedGpuSec", u."unallocatedGpuSec",
        u."healthyCapacityGpuSec" AS "capacityGpuSec", u.preemptions
      FROM usage_hourly u JOIN clusters c ON c.id = u."clusterId"
      WHERE u."hourStart" >= ${utc(readFromSec)} AND u."hourStart" < ${utc(period.toSec)}
        ${clusterFilter}`,
    db.$queryRaw<{ budgetId: string; jobClass: string; waitSec: number }[]>`
      SELECT "budgetId", "jobClass",
        EXTRACT(EPOCH FROM COALESCE("firstStartedAt", "endedAt", ${utc(nowSec)})
          - "submittedAt")::float8 AS "waitSec"
      FROM jobs
      WHERE "submittedAt" >= ${utc(period.fromSec)} AND "submittedAt" < ${utc(period.toSec)}
        ${clusterFilter}`,
  ]);

  const epochs = treeEpochs(nodes, weights);
  const parentOf = new Map(nodes.map((node) => [node.id, node.parentId]));
  const hours = toClusterHours(hourRows);
  const periodHours = hours.filter(
    (hour) => hour.hourStartSec >= period.fromSec && hour.hourStartSec < period.toSec,
  );
  const report = buildPeriodReport(epochs, periodHours);
  const preemptionsByLeaf: Record<string, number> = {};
  for (const row of hourRows) {
    if (row.hourSec < period.fromSec || row.preemptions === 0) continue;
    preemptionsByLeaf[row.budgetId] = (preemptionsByLeaf[row.budgetId] ?? 0) + row.preemptions;
  }
  const waits = summariseWaits(
    parentOf,
    waitRows.map((row) => ({ ...row, waitSec: Math.max(0, row.waitSec) })),
  );
  const liveIds = new Set(nodes.filter((node) => !node.removedAt).map((node) => node.id));
  return {
    period,
    cluster: chosen?.name ?? null,
    clusters: clusters.map(({ name, gpuType }) => ({ name, gpuType })),
    headline: report.headline,
    clusterFigures: report.clusters,
    rows: reviewRows(report, rollUpCounts(parentOf, preemptionsByLeaf), waits, liveIds),
    series: buildPeriodSeries(epochs, periodHours, period.fromSec, period.toSec),
    usageRatios: usageRatiosAt(epochs, hours, ratioAtSec, inScope),
    hasData: periodHours.length > 0,
  };
}

/** The trees in force over time, from the weight history (hours before it are skipped). */
function treeEpochs(
  nodes: { id: string; parentId: string | null; name: string }[],
  weights: { nodeId: string; at: Date; weightAfter: number | null }[],
): TreeEpoch[] {
  return buildTreeEpochs(
    nodes,
    weights.map((row) => ({
      nodeId: row.nodeId,
      atSec: row.at.getTime() / 1000,
      weight: row.weightAfter,
    })),
  );
}

function toClusterHours(rows: readonly HourRow[]): ClusterHour[] {
  const byKey = new Map<string, ClusterHour>();
  for (const row of rows) {
    const key = `${row.cluster}\u0000${row.hourSec}`;
    let hour = byKey.get(key);
    if (!hour) {
      hour = {
        cluster: row.cluster,
        hourStartSec: row.hourSec,
        capacityGpuSec: row.capacityGpuSec,
        leaves: Object.create(null) as ClusterHour["leaves"],
      };
      byKey.set(key, hour);
    }
    hour.leaves[row.budgetId] = {
      demandGpuSec: row.demandGpuSec,
      allocatedGpuSec: row.allocatedGpuSec,
      unallocatedGpuSec: row.unallocatedGpuSec,
    };
  }
  return [...byKey.values()].sort(
    (a, b) => a.hourStartSec - b.hourStartSec || a.cluster.localeCompare(b.cluster),
  );
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

/** The review a validated query asks for, by the app clock (the last full month by default). */
export async function getReview(query: ReviewQuery): Promise<ReviewData> {
  const db = getDb();
  const nowSec = Math.floor((await getNow(db)).getTime() / 1000);
  const period = periodOfQuery(query, lastFullMonth(nowSec));
  return loadReviewData(db, { period, cluster: query.cluster, nowSec });
}

/** The default period by the app clock, for the page's controls. */
export async function getDefaultReviewPeriod(): Promise<ReviewPeriod> {
  return lastFullMonth(Math.floor((await getNow()).getTime() / 1000));
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
