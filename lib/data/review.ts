// The monthly budget review's data (DESIGN section 5, issue 7): read from the hourly roll-ups,
// the jobs' queue waits and the weight history only, never from raw runs.
import { rankBudgets } from "../engine";
import { Prisma } from "../generated/prisma/client";
import {
  buildPeriodReport,
  type BucketFlow,
  type ClusterHour,
  type PeriodReport,
} from "../reports/period-report";
import { hourStartOf, ROLLUP_HOUR_SEC } from "../reports/rollup";
import { epochAt, type TreeEpoch } from "../reports/weights-in-force";
import { AppError } from "../errors";
import type { Db } from "./client";
import { loadTreeEpochs } from "./rollups";

const DAY_SEC = 86_400;

export type ReviewOptions = {
  /** The period [fromSec, toSec), epoch seconds; hours are counted whole by their start. */
  fromSec: number;
  toSec: number;
  /** One cluster by name; all clusters when absent. */
  cluster?: string;
  /** Jobs that had not started by then count their wait up to it; default `toSec`. */
  nowSec?: number;
};

/** Queue waits (first start minus submit) of one job class, seconds; nearest-rank percentiles. */
export type ClassWaits = { jobClass: string; jobs: number; waitP50Sec: number; waitP90Sec: number };

/** What the period report lacks per node: waits by class and preemptions, subtree included. */
export type NodeActivity = { waits: ClassWaits[]; preemptions: number };

/** One UTC day of a node: capped entitlement and what it received, GPU-hours. */
export type DayFlow = BucketFlow;

/** A node's standing on one cluster at the period's end, as the queue ranks it. */
export type UsageStanding = {
  id: string;
  path: string;
  isLeaf: boolean;
  effectiveShare: number;
  /** Allocated GPU-hours in the lookback window ending at the period's end. */
  usageGpuHours: number;
  /** usage / (share x cluster GPUs x window); null when owed nothing. */
  usageRatio: number | null;
  /** Leaf rank, 1 = most under-served; null for inner nodes. */
  rank: number | null;
};

export type PeriodReview = {
  fromSec: number;
  toSec: number;
  cluster: string | null;
  /** buildPeriodReport over the roll-ups: per node entitled / received / fulfilment, headline. */
  report: PeriodReport;
  /** By node id (every node of `report.nodes`; a node with no job has no waits). */
  activity: Record<string, NodeActivity>;
  /** Per UTC day of the period, by node id. */
  daily: { dayStartSec: number; nodes: Record<string, DayFlow> }[];
  /** Per cluster: every node's usage ratio over the lookback window ending at `toSec`. */
  standings: { cluster: string; windowSec: number; nodes: UsageStanding[] }[];
};

type RollupRow = {
  clusterId: string;
  budgetId: string;
  hourStartSec: number;
  demandGpuSec: number;
  allocatedGpuSec: number;
  unallocatedGpuSec: number;
  healthyCapacityGpuSec: number;
  preemptions: number;
};

const dateAt = (sec: number): Date => new Date(Math.round(sec * 1000));
/** Timestamps travel to raw SQL as ISO text cast to the columns' type (UTC, no zone). */
const sqlTime = (sec: number): string => dateAt(sec).toISOString();

/** Groups roll-up rows into cluster-hours (rows with no flow only carry capacity). */
function toClusterHours(rows: readonly RollupRow[], nameOf: Map<string, string>): ClusterHour[] {
  const hours = new Map<string, ClusterHour>();
  for (const row of rows) {
    const { hourStartSec } = row;
    const key = `${row.clusterId}|${hourStartSec}`;
    let hour = hours.get(key);
    if (!hour) {
      hour = {
        cluster: nameOf.get(row.clusterId) ?? row.clusterId,
        hourStartSec,
        capacityGpuSec: row.healthyCapacityGpuSec,
        leaves: {},
      };
      hours.set(key, hour);
    }
    if (row.demandGpuSec + row.allocatedGpuSec + row.unallocatedGpuSec > 0) {
      hour.leaves[row.budgetId] = {
        demandGpuSec: row.demandGpuSec,
        allocatedGpuSec: row.allocatedGpuSec,
        unallocatedGpuSec: row.unallocatedGpuSec,
      };
    }
  }
  return [...hours.values()].sort(
    (a, b) => a.hourStartSec - b.hourStartSec || a.cluster.localeCompare(b.cluster),
  );
}

/** Every ancestor of each node (itself included), from the stored shapes. */
function ancestorsOf(epochs: readonly TreeEpoch[], parents: Map<string, string | null>) {
  for (const epoch of epochs) {
    for (const node of epoch.tree.nodes) parents.set(node.id, node.parentId);
  }
  return (id: string): string[] => {
    const chain: string[] = [];
    for (let at: string | null | undefined = id; at && !chain.includes(at); at = parents.get(at)) {
      chain.push(at);
    }
    return chain;
  };
}

/**
 * The review of a period (DESIGN section 5) for one cluster or all: buildPeriodReport over the
 * roll-ups with the weights in force each hour, queue waits per job class and preemptions per
 * node (its subtree included), entitled vs received per UTC day and node, and each cluster's
 * usage ratios over the lookback window ending at `toSec` (the numbers the queue ranks by, from
 * whole roll-up hours).
 *
 * @example await loadPeriodReview(db, { fromSec: Date.UTC(2026, 9, 1) / 1000, toSec: Date.UTC(2026, 10, 1) / 1000 })
 */
export async function loadPeriodReview(db: Db, options: ReviewOptions): Promise<PeriodReview> {
  const { fromSec, toSec: untilSec } = options;
  if (!(untilSec > fromSec)) {
    throw new AppError("validation_failed", "The period must end after it starts.", [
      { path: "to", message: "must be after from" },
    ]);
  }
  const clusters = await db.cluster.findMany({
    where: options.cluster === undefined ? {} : { name: options.cluster },
    select: { id: true, name: true, lookbackSec: true, nodes: { select: { gpus: true } } },
    orderBy: { name: "asc" },
  });
  if (options.cluster !== undefined && clusters.length === 0) {
    throw new AppError("not_found", `No cluster is named "${options.cluster}".`);
  }
  const clusterIds = clusters.map((cluster) => cluster.id);
  if (clusterIds.length === 0) clusterIds.push("");
  const nameOf = new Map(clusters.map((cluster) => [cluster.id, cluster.name]));
  const longestWindowSec = Math.max(0, ...clusters.map((cluster) => cluster.lookbackSec));
  const readFromSec = Math.min(fromSec, untilSec - longestWindowSec);
  const [epochs, rows, shapes] = await Promise.all([
    loadTreeEpochs(db),
    // Raw: tens of thousands of rows; epoch seconds instead of Dates, only the columns needed.
    db.$queryRaw<RollupRow[]>`
      SELECT "clusterId", "budgetId", EXTRACT(EPOCH FROM "hourStart")::float8 AS "hourStartSec",
             "demandGpuSec", "allocatedGpuSec", "unallocatedGpuSec", "healthyCapacityGpuSec",
             preemptions
        FROM usage_hourly
       WHERE "clusterId" IN (${Prisma.join(clusterIds)})
         AND "hourStart" >= ${sqlTime(hourStartOf(readFromSec))}::timestamp(3)
         AND "hourStart" < ${sqlTime(untilSec)}::timestamp(3)`,
    db.budgetNode.findMany({ select: { id: true, parentId: true } }),
  ]);
  const inPeriod = rows.filter(
    (row) => row.hourStartSec >= hourStartOf(fromSec) && row.hourStartSec < untilSec,
  );
  const hours = toClusterHours(inPeriod, nameOf);
  const { buckets = [], ...report } = buildPeriodReport(epochs, hours, { bucketSec: DAY_SEC });
  const ancestors = ancestorsOf(epochs, new Map(shapes.map((s) => [s.id, s.parentId])));

  const activity: Record<string, NodeActivity> = {};
  for (const node of report.nodes) activity[node.id] = { waits: [], preemptions: 0 };
  for (const row of inPeriod) {
    if (row.preemptions === 0) continue;
    for (const id of ancestors(row.budgetId)) {
      if (activity[id]) activity[id].preemptions += row.preemptions;
    }
  }
  for (const wait of await loadWaits(db, options, clusterIds, ancestors)) {
    activity[wait.nodeId]?.waits.push(wait.waits);
  }

  return {
    fromSec,
    toSec: untilSec,
    cluster: options.cluster ?? null,
    report,
    activity,
    daily: buckets.map((bucket) => ({ dayStartSec: bucket.startSec, nodes: bucket.nodes })),
    standings: clusters.map((cluster) => {
      const windowStartSec = untilSec - cluster.lookbackSec;
      const usage: Record<string, number> = {};
      for (const row of rows) {
        const sec = row.hourStartSec;
        if (row.clusterId !== cluster.id || sec < windowStartSec || sec >= untilSec) continue;
        usage[row.budgetId] = (usage[row.budgetId] ?? 0) + row.allocatedGpuSec;
      }
      return {
        cluster: cluster.name,
        windowSec: cluster.lookbackSec,
        nodes: standingsOf(epochs, untilSec, usage, cluster),
      };
    }),
  };
}

function standingsOf(
  epochs: readonly TreeEpoch[],
  atSec: number,
  usage: Record<string, number>,
  cluster: { lookbackSec: number; nodes: { gpus: number }[] },
): UsageStanding[] {
  const tree = (epochAt(epochs, atSec - 1) ?? epochs[epochs.length - 1])?.tree;
  if (!tree) return [];
  const ranking = rankBudgets(tree, usage, {
    capacityGpus: cluster.nodes.reduce((sum, node) => sum + node.gpus, 0),
    windowSec: cluster.lookbackSec,
  });
  return ranking.rows.map((row) => ({
    id: row.id,
    path: row.path,
    isLeaf: row.isLeaf,
    effectiveShare: row.effectiveShare,
    usageGpuHours: row.usageGpuSeconds / ROLLUP_HOUR_SEC,
    usageRatio: row.usageRatio,
    rank: row.rank,
  }));
}

/** Wait percentiles per node (subtree) and class, computed in the database (percentile_disc). */
async function loadWaits(
  db: Db,
  options: ReviewOptions,
  clusterIds: string[],
  ancestors: (id: string) => string[],
): Promise<{ nodeId: string; waits: ClassWaits }[]> {
  const leaves = await db.job.groupBy({
    by: ["budgetId"],
    where: {
      clusterId: { in: clusterIds },
      submittedAt: { gte: dateAt(options.fromSec), lt: dateAt(options.toSec) },
    },
  });
  const pairs = leaves.flatMap(({ budgetId }) =>
    ancestors(budgetId).map((node) => ({ leaf: budgetId, node })),
  );
  if (pairs.length === 0) return [];
  const cutoff = sqlTime(Math.min(options.nowSec ?? options.toSec, options.toSec));
  const rows = await db.$queryRaw<
    { node: string; jobClass: string; jobs: number; p50: number; p90: number }[]
  >`
    WITH pairs AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS p(leaf text, node text)
    ), waits AS (
      SELECT j."budgetId", j."jobClass",
             EXTRACT(EPOCH FROM LEAST(COALESCE(j."firstStartedAt", j."endedAt", ${cutoff}::timestamp(3)),
                                      ${cutoff}::timestamp(3)) - j."submittedAt")::float8 AS wait
        FROM jobs j
       WHERE j."clusterId" IN (${Prisma.join(clusterIds)})
         AND j."submittedAt" >= ${sqlTime(options.fromSec)}::timestamp(3)
         AND j."submittedAt" < ${sqlTime(options.toSec)}::timestamp(3)
    )
    SELECT p.node, w."jobClass", count(*)::int AS jobs,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY w.wait) AS p50,
           percentile_disc(0.9) WITHIN GROUP (ORDER BY w.wait) AS p90
      FROM waits w JOIN pairs p ON p.leaf = w."budgetId"
     GROUP BY p.node, w."jobClass"
     ORDER BY p.node, w."jobClass"`;
  return rows.map((row) => ({
    nodeId: row.node,
    waits: {
      jobClass: row.jobClass,
      jobs: row.jobs,
      waitP50Sec: Math.max(0, row.p50),
      waitP90Sec: Math.max(0, row.p90),
    },
  }));
}
