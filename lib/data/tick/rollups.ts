// Hourly roll-ups (docs/fulfilment.md, docs/decisions/070-review-rollups.md): computed from runs,
// jobs, node health history and the weights in force by lib/reports/rollup.ts; rebuilt in one
// go (npm run db:rollup) or refreshed by every tick for the hours it touched.
import type { NodeHealth, NodeSlice } from "../../engine";
import {
  computeHourlyRollups,
  hourStartOf,
  ROLLUP_HOUR_SEC,
  type RollupNode,
  type UsageHour,
} from "../../reports/rollup";
import { buildTreeEpochs, type TreeEpoch } from "../../reports/weights-in-force";
import type { Db } from "../db/client";
import { readAppNow } from "../db/app-clock";
import { insertRows, type BulkColumn } from "../db/bulk-insert";
import { fromSec as dateOfSec, toSec } from "../db/epoch";
import type { Prisma } from "../../generated/prisma/client";

const FLOAT = "double precision";
const USAGE_COLUMNS: BulkColumn[] = [
  { name: "clusterId", type: "text" },
  { name: "budgetId", type: "text" },
  { name: "hourStart", type: "timestamp(3)" },
  { name: "demandGpuSec", type: FLOAT },
  { name: "allocatedGpuSec", type: FLOAT },
  { name: "unallocatedGpuSec", type: FLOAT },
  { name: "healthyCapacityGpuSec", type: FLOAT },
  { name: "preemptions", type: "integer" },
  { name: "effectiveShare", type: FLOAT },
];

// Not from ./live-state: this module also serves scripts (npm run db:rollup, the seed).
type Tx = Prisma.TransactionClient;

/** Every weight the tree has had, as epochs of constant weights (removed nodes included). */
export async function loadTreeEpochs(db: Db | Tx): Promise<TreeEpoch[]> {
  const [shapes, changes] = await Promise.all([
    db.budgetNode.findMany({
      select: { id: true, parentId: true, name: true },
      orderBy: [{ createdAt: "asc" }, { name: "asc" }],
    }),
    db.weightChange.findMany({
      select: { nodeId: true, at: true, weightAfter: true },
      orderBy: [{ at: "asc" }, { id: "asc" }],
    }),
  ]);
  return buildTreeEpochs(
    shapes,
    changes.map((change) => ({
      nodeId: change.nodeId,
      atSec: toSec(change.at),
      weight: change.weightAfter,
    })),
  );
}

/** The roll-up rows of one cluster for the hours from `fromSec`'s to `untilSec`, from the rows. */
export async function computeClusterRollups(
  db: Db | Tx,
  clusterId: string,
  fromSec: number,
  untilSec: number,
  epochs: readonly TreeEpoch[],
): Promise<UsageHour[]> {
  const firstHour = dateOfSec(hourStartOf(fromSec));
  const until = dateOfSec(untilSec);
  const overlapping = {
    clusterId,
    OR: [{ endedAt: null }, { endedAt: { gt: firstHour } }],
  };
  const [runs, jobs, nodes, changes] = await Promise.all([
    db.run.findMany({
      where: { ...overlapping, startedAt: { lt: until } },
      select: {
        id: true,
        budgetId: true,
        gpus: true,
        startedAt: true,
        endedAt: true,
        isAllocated: true,
        endReason: true,
        placement: true,
      },
    }),
    db.job.findMany({
      where: { ...overlapping, submittedAt: { lt: until } },
      select: {
        id: true,
        budgetId: true,
        gpus: true,
        minRuntimeSec: true,
        submittedAt: true,
        endedAt: true,
      },
    }),
    db.clusterNode.findMany({ where: { clusterId }, select: { index: true, gpus: true } }),
    db.nodeHealthChange.findMany({
      where: { clusterId, at: { lt: until } },
      select: { nodeIndex: true, at: true, health: true },
      orderBy: [{ at: "asc" }, { id: "asc" }],
    }),
  ]);
  const changesOf = new Map<number, { atSec: number; health: NodeHealth }[]>();
  for (const change of changes) {
    const list = changesOf.get(change.nodeIndex) ?? [];
    list.push({ atSec: toSec(change.at), health: change.health });
    changesOf.set(change.nodeIndex, list);
  }
  const rollupNodes: RollupNode[] = nodes.map((node) => ({
    index: node.index,
    gpus: node.gpus,
    changes: changesOf.get(node.index) ?? [],
  }));
  return computeHourlyRollups({
    clusterId,
    fromSec: toSec(firstHour),
    untilSec,
    runs: runs.map((run) => ({
      id: run.id,
      budgetId: run.budgetId,
      gpus: run.gpus,
      startSec: toSec(run.startedAt),
      endSec: run.endedAt ? toSec(run.endedAt) : null,
      isAllocated: run.isAllocated,
      isPreempted: run.endReason === "preempted",
      nodes: (run.placement as NodeSlice[]).map((slice) => slice.node),
    })),
    jobs: jobs.map((job) => ({
      id: job.id,
      budgetId: job.budgetId,
      gpus: job.gpus,
      minRuntimeSec: job.minRuntimeSec,
      submitSec: toSec(job.submittedAt),
      endSec: job.endedAt ? toSec(job.endedAt) : null,
    })),
    nodes: rollupNodes,
    epochs,
  });
}

/**
 * Replaces the roll-ups of one cluster for the hours from `fromSec`'s to `untilSec`'s with
 * `rows` (computed for exactly those hours). Call inside a transaction.
 */
export async function replaceClusterRollups(
  tx: Tx,
  clusterId: string,
  fromSec: number,
  untilSec: number,
  rows: readonly UsageHour[],
): Promise<void> {
  await tx.usageHourly.deleteMany({
    where: {
      clusterId,
      hourStart: { gte: dateOfSec(hourStartOf(fromSec)), lt: dateOfSec(untilSec) },
    },
  });
  await insertRows(
    tx,
    "usage_hourly",
    USAGE_COLUMNS,
    rows.map(({ hourStartSec, ...row }) => ({ ...row, hourStart: dateOfSec(hourStartSec) })),
  );
}

/**
 * The tick's share of the work: recomputes one cluster's hours from the one before the previous
 * tick's (a margin for writes that raced the previous tick) to `now`. A few hours of one cluster:
 * cheap. With no previous tick, from the last hour rolled up, else the first submission.
 */
export async function refreshClusterRollups(
  tx: Tx,
  clusterId: string,
  previousTickAt: Date | null,
  now: Date,
): Promise<number> {
  // Never before the cluster's first submission: a rebuild would not have those hours either.
  const [first, last] = await Promise.all([
    tx.job.aggregate({ where: { clusterId }, _min: { submittedAt: true } }),
    previousTickAt
      ? null
      : tx.usageHourly.aggregate({ where: { clusterId }, _max: { hourStart: true } }),
  ]);
  if (!first._min.submittedAt) return 0;
  const firstSec = toSec(first._min.submittedAt);
  // Never ticked: from the last hour already rolled up (a seeded history), else the start.
  const sinceSec = previousTickAt
    ? Math.min(
        hourStartOf(toSec(previousTickAt)) - ROLLUP_HOUR_SEC,
        await adoptedSinceSec(tx, clusterId, previousTickAt),
      )
    : toSec(last?._max.hourStart ?? first._min.submittedAt);
  const fromSec = Math.max(sinceSec, hourStartOf(firstSec));
  const untilSec = toSec(now);
  const epochs = await loadTreeEpochs(tx);
  const rows = await computeClusterRollups(tx, clusterId, fromSec, untilSec, epochs);
  await replaceClusterRollups(tx, clusterId, fromSec, untilSec, rows);
  return rows.length;
}

/**
 * The hour the earliest run confirmed since the last tick started in, or Infinity: a job adopted
 * from its executor (lib/data/adopted-runs.ts) may have run for days before Allot saw it, and
 * those hours are rolled up too. Only open runs are read (few, and indexed).
 */
async function adoptedSinceSec(tx: Tx, clusterId: string, previousTickAt: Date): Promise<number> {
  const adopted = await tx.run.aggregate({
    where: { clusterId, endedAt: null, startAckedAt: { gte: previousTickAt } },
    _min: { startedAt: true },
  });
  const startedAt = adopted._min.startedAt;
  return startedAt ? hourStartOf(toSec(startedAt)) : Infinity;
}

export type RebuildOptions = { fromSec?: number; toSec?: number };

export type RebuildResult = {
  fromSec: number;
  toSec: number;
  clusters: { name: string; rows: number; hours: number }[];
  rows: number;
  durationMs: number;
};

/**
 * Rebuilds every cluster's roll-ups from runs, jobs and node health in one transaction. The
 * range defaults to the first submission to the last tick (or the app clock when no cluster
 * has ticked); `fromSec` is rounded down to its hour, `toSec` up to the next hour but never past
 * that default end (the last hour stays partial: it is "now").
 */
export async function rebuildRollups(db: Db, options: RebuildOptions = {}): Promise<RebuildResult> {
  const startedMs = performance.now();
  const [first, lastTick] = await Promise.all([
    db.job.aggregate({ _min: { submittedAt: true } }),
    db.cluster.aggregate({ _max: { tickedAt: true } }),
  ]);
  const endSec = toSec(lastTick._max.tickedAt ?? (await readAppNow(db)));
  const defaultFromSec = first._min.submittedAt ? toSec(first._min.submittedAt) : endSec;
  const fromSec = hourStartOf(options.fromSec ?? defaultFromSec);
  const toSecValue =
    options.toSec === undefined
      ? endSec
      : Math.min(endSec, Math.ceil(options.toSec / ROLLUP_HOUR_SEC) * ROLLUP_HOUR_SEC);
  const [clusters, firsts] = await Promise.all([
    db.cluster.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } }),
    db.job.groupBy({ by: ["clusterId"], _min: { submittedAt: true } }),
  ]);
  // As the tick does: a cluster's roll-ups start with its first submission.
  const firstSecOf = new Map(
    firsts.map((row) => [row.clusterId, hourStartOf(toSec(row._min.submittedAt!))]),
  );
  const counts = await db.$transaction(
    async (tx) => {
      const epochs = await loadTreeEpochs(tx);
      const out: RebuildResult["clusters"] = [];
      for (const cluster of clusters) {
        const clusterFromSec = Math.max(fromSec, firstSecOf.get(cluster.id) ?? Infinity);
        const rows =
          toSecValue > clusterFromSec
            ? await computeClusterRollups(tx, cluster.id, clusterFromSec, toSecValue, epochs)
            : [];
        await replaceClusterRollups(tx, cluster.id, fromSec, Math.max(fromSec, toSecValue), rows);
        out.push({
          name: cluster.name,
          rows: rows.length,
          hours: new Set(rows.map((row) => row.hourStartSec)).size,
        });
      }
      return out;
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
  return {
    fromSec,
    toSec: Math.max(fromSec, toSecValue),
    clusters: counts,
    rows: counts.reduce((sum, cluster) => sum + cluster.rows, 0),
    durationMs: Math.round(performance.now() - startedMs),
  };
}
