// The monthly budget review's data (docs/fulfilment.md, issue 7): read from the hourly roll-ups,
// the jobs' queue waits and the weight history only, never from raw runs.
import { rankBudgets } from "../engine";
import { Prisma } from "../generated/prisma/client";
import {
  buildPeriodReport,
  type BucketFlow,
  type ClusterHour,
  type PeriodReport,
} from "../reports/period-report";
import { defaultReviewPeriod, type ReviewPeriod } from "../reports/review-period";
import { hourStartOf, ROLLUP_HOUR_SEC } from "../reports/rollup";
import { epochAt, type TreeEpoch } from "../reports/weights-in-force";
import { AppError } from "../errors";
import type { ClusterCoverage } from "../sentences/review-coverage";
import type { Db } from "./db/client";
import { fromSec as dateOfSec } from "./db/epoch";
import { loadTreeEpochs } from "./tick/rollups";

const DAY_SEC = 86_400;

export type ReviewOptions = {
  /** The period [fromSec, toSec), epoch seconds; hours are counted whole by their start. */
  fromSec: number;
  toSec: number;
  /** One cluster by name (an unknown name is a 422 on `cluster`); all clusters when absent. */
  cluster?: string;
  /** Several clusters by name (the what-if's), names not found left out; ignored with `cluster`. */
  clusters?: readonly string[];
  /**
   * The clock, for a period still running: jobs not started by then count their wait up to it,
   * and usage ratios are taken at its hour instead of the period's end. Default `toSec`.
   */
  nowSec?: number;
};

/** Queue waits (first start minus submit) of one job class, seconds; nearest-rank percentiles. */
export type ClassWaits = { jobClass: string; jobs: number; waitP50Sec: number; waitP90Sec: number };

/** What the period report lacks per node: waits by class and preemptions, subtree included. */
export type NodeActivity = { waits: ClassWaits[]; preemptions: number };

/** One UTC day of a node: capped entitlement and what it received, GPU-hours. */
export type DayFlow = BucketFlow;

/** A node's standing on one cluster at the period's end (or now), as the queue ranks it. */
export type UsageStanding = {
  id: string;
  path: string;
  isLeaf: boolean;
  effectiveShare: number;
  /** Allocated GPU-hours in the lookback window ending at the period's end. */
  usageGpuHours: number;
  /** usage / (share x cluster GPUs x window), the engine's capacity (docs/ranking.md); null when owed nothing. */
  usageRatio: number | null;
  /** Leaf rank, 1 = most under-served; null for inner nodes. */
  rank: number | null;
};

export type PeriodReview = {
  fromSec: number;
  toSec: number;
  cluster: string | null;
  /** Per cluster of the review, in name order. */
  coverage: ClusterCoverage[];
  /** buildPeriodReport over the roll-ups: per node entitled / received / fulfilment, headline. */
  report: PeriodReport;
  /** By node id (every node of `report.nodes`; a node with no job has no waits). */
  activity: Record<string, NodeActivity>;
  /** Per UTC day of the period, by node id. */
  daily: { dayStartSec: number; nodes: Record<string, DayFlow> }[];
  /** Per cluster: every node's usage ratio over the lookback window ending at `atSec`. */
  standings: {
    cluster: string;
    /** min(toSec, nowSec's hour): the window's end. */
    atSec: number;
    windowSec: number;
    /** All the cluster's GPUs, as the queue ranks (docs/ranking.md), not the healthy ones. */
    capacityGpus: number;
    nodes: UsageStanding[];
  }[];
};

/** Timestamps travel to raw SQL as ISO text cast to the columns' type (UTC, no zone). */
const sqlTime = (sec: number): string => dateOfSec(sec).toISOString();

/** Every ancestor of each node (itself included), over all the trees it was part of. */
function ancestorsOf(epochs: readonly TreeEpoch[]) {
  const parents = new Map<string, string | null>();
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
 * The review of a period (docs/fulfilment.md) for one cluster or all: buildPeriodReport over the
 * roll-ups with the weights in force each hour, queue waits per job class and preemptions per
 * node (its subtree included), entitled vs received per UTC day and node, and each cluster's
 * usage ratios over the lookback window ending at `toSec` (or at `nowSec`'s hour, if earlier):
 * the numbers the queue ranks by, from whole roll-up hours, over all the cluster's GPUs.
 *
 * A job's wait is first start minus submit; a job that never started counts up to its
 * cancellation or the period's end (or `nowSec`), whichever comes first: the simulator's rule
 * (docs/simulator.md, ADR 075). The page, its CSV/JSON and the what-if's "what happened" all
 * read through this one loader.
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
  const names = options.cluster !== undefined ? [options.cluster] : options.clusters;
  const clusters = await db.cluster.findMany({
    where: names === undefined ? {} : { name: { in: [...names] } },
    select: { id: true, name: true, lookbackSec: true, nodes: { select: { gpus: true } } },
    orderBy: { name: "asc" },
  });
  if (options.cluster !== undefined && clusters.length === 0) {
    throw new AppError("validation_failed", "The request has invalid fields.", [
      { path: "cluster", message: `No cluster is named "${options.cluster}".` },
    ]);
  }
  const clusterIds = clusters.map((cluster) => cluster.id);
  if (clusterIds.length === 0) clusterIds.push("");
  const nameOf = new Map(clusters.map((cluster) => [cluster.id, cluster.name]));
  const nowHourSec = hourStartOf(options.nowSec ?? untilSec);
  const atSec = Math.min(untilSec, nowHourSec);
  const [epochs, hourRows, windowRows, waits] = await Promise.all([
    loadTreeEpochs(db),
    // One row per cluster-hour with its leaves as JSON: far fewer objects than one per leaf.
    db.$queryRaw<
      { clusterId: string; hourStartSec: number; capacityGpuSec: number; leaves: string }[]
    >`
      SELECT "clusterId", EXTRACT(EPOCH FROM "hourStart")::float8 AS "hourStartSec",
             max("healthyCapacityGpuSec") AS "capacityGpuSec",
             json_object_agg("budgetId", json_build_array("demandGpuSec", "allocatedGpuSec",
                                                          "unallocatedGpuSec", preemptions))::text
               AS leaves
        FROM usage_hourly
       WHERE "clusterId" IN (${Prisma.join(clusterIds)})
         AND "hourStart" >= ${sqlTime(hourStartOf(fromSec))}::timestamp(3)
         AND "hourStart" < ${sqlTime(untilSec)}::timestamp(3)
       GROUP BY "clusterId", "hourStart"
       ORDER BY "hourStart", "clusterId"`,
    // Allocated GPU-seconds per leaf over each cluster's lookback window ending at `atSec`.
    db.$queryRaw<{ clusterId: string; budgetId: string; allocatedGpuSec: number }[]>`
      SELECT u."clusterId", u."budgetId", sum(u."allocatedGpuSec")::float8 AS "allocatedGpuSec"
        FROM usage_hourly u JOIN clusters c ON c.id = u."clusterId"
       WHERE u."clusterId" IN (${Prisma.join(clusterIds)})
         AND u."hourStart" >= ${sqlTime(atSec)}::timestamp(3) - make_interval(secs => c."lookbackSec")
         AND u."hourStart" < ${sqlTime(atSec)}::timestamp(3)
       GROUP BY u."clusterId", u."budgetId"`,
    loadWaits(db, options, clusterIds),
  ]);
  const hours: ClusterHour[] = [];
  const preemptionsByLeaf = new Map<string, number>();
  const elapsedEndSec = Math.min(untilSec, nowHourSec);
  const coverage = new Map(
    clusters.map((cluster) => [
      cluster.id,
      {
        cluster: cluster.name,
        periodHours: Math.max(0, (elapsedEndSec - hourStartOf(fromSec)) / ROLLUP_HOUR_SEC),
        recordedHours: 0,
        firstRecordedSec: null as number | null,
      },
    ]),
  );
  for (const row of hourRows) {
    const covered = coverage.get(row.clusterId);
    if (covered && row.hourStartSec < elapsedEndSec) {
      covered.recordedHours += 1;
      covered.firstRecordedSec ??= row.hourStartSec;
    }
    const hour: ClusterHour = {
      cluster: nameOf.get(row.clusterId) ?? row.clusterId,
      hourStartSec: row.hourStartSec,
      capacityGpuSec: row.capacityGpuSec,
      leaves: {},
    };
    const leaves = JSON.parse(row.leaves) as Record<string, [number, number, number, number]>;
    for (const [budgetId, [demand, allocated, unallocated, preemptions]] of Object.entries(
      leaves,
    )) {
      // A row with no flow only carries an idle hour's capacity (ADR 060).
      if (demand + allocated + unallocated > 0) {
        hour.leaves[budgetId] = {
          demandGpuSec: demand,
          allocatedGpuSec: allocated,
          unallocatedGpuSec: unallocated,
        };
      }
      if (preemptions > 0) {
        preemptionsByLeaf.set(budgetId, (preemptionsByLeaf.get(budgetId) ?? 0) + preemptions);
      }
    }
    hours.push(hour);
  }
  const { buckets = [], ...report } = buildPeriodReport(epochs, hours, { bucketSec: DAY_SEC });
  const ancestors = ancestorsOf(epochs);

  const activity: Record<string, NodeActivity> = {};
  for (const node of report.nodes) activity[node.id] = { waits: [], preemptions: 0 };
  for (const [budgetId, preemptions] of preemptionsByLeaf) {
    for (const id of ancestors(budgetId)) {
      if (activity[id]) activity[id].preemptions += preemptions;
    }
  }
  for (const wait of waits) activity[wait.nodeId]?.waits.push(wait.waits);

  return {
    fromSec,
    toSec: untilSec,
    cluster: options.cluster ?? null,
    coverage: [...coverage.values()],
    report,
    activity,
    daily: buckets.map((bucket) => ({ dayStartSec: bucket.startSec, nodes: bucket.nodes })),
    standings: clusters.map((cluster) => {
      const usage: Record<string, number> = {};
      for (const row of windowRows) {
        if (row.clusterId === cluster.id) usage[row.budgetId] = row.allocatedGpuSec;
      }
      const capacityGpus = cluster.nodes.reduce((sum, node) => sum + node.gpus, 0);
      return {
        cluster: cluster.name,
        atSec,
        windowSec: cluster.lookbackSec,
        capacityGpus,
        nodes: standingsOf(epochs, atSec, usage, { capacityGpus, windowSec: cluster.lookbackSec }),
      };
    }),
  };
}

function standingsOf(
  epochs: readonly TreeEpoch[],
  atSec: number,
  usage: Record<string, number>,
  ranking: { capacityGpus: number; windowSec: number },
): UsageStanding[] {
  const tree = (epochAt(epochs, atSec - 1) ?? epochs[epochs.length - 1])?.tree;
  if (!tree) return [];
  const ranked = rankBudgets(tree, usage, ranking);
  return ranked.rows.map((row) => ({
    id: row.id,
    path: row.path,
    isLeaf: row.isLeaf,
    effectiveShare: row.effectiveShare,
    usageGpuHours: row.usageGpuSeconds / ROLLUP_HOUR_SEC,
    usageRatio: row.usageRatio,
    rank: row.rank,
  }));
}

/**
 * Wait percentiles per node (its subtree's jobs) and class, computed in the database
 * (percentile_disc: the simulator's nearest rank). The (leaf, ancestor) pairs go in as JSON:
 * a recursive CTE there misleads the planner into compiling the query (JIT), ten times slower.
 */
async function loadWaits(
  db: Db,
  options: ReviewOptions,
  clusterIds: string[],
): Promise<{ nodeId: string; waits: ClassWaits }[]> {
  const cutoff = sqlTime(Math.min(options.nowSec ?? options.toSec, options.toSec));
  const nodes = await db.budgetNode.findMany({ select: { id: true, parentId: true } });
  const parentOf = new Map(nodes.map((node) => [node.id, node.parentId]));
  const pairs = nodes.flatMap((leaf) => {
    const chain: { leaf: string; node: string }[] = [];
    for (let at: string | null | undefined = leaf.id; at; at = parentOf.get(at)) {
      if (chain.length > nodes.length) break;
      chain.push({ leaf: leaf.id, node: at });
    }
    return chain;
  });
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

/**
 * The period a review or a what-if shows when none is asked for, at `nowSec` (the app clock):
 * the last full month once the roll-ups cover it, else the 30 whole days before today
 * (`defaultReviewPeriod`).
 */
export async function loadDefaultPeriod(db: Db, nowSec: number): Promise<ReviewPeriod> {
  const earliest = await db.usageHourly.aggregate({ _min: { hourStart: true } });
  const earliestMs = earliest._min.hourStart?.getTime();
  return defaultReviewPeriod(nowSec, earliestMs === undefined ? null : earliestMs / 1000);
}
