import { rankBudgets } from "../engine";
import { roundTo } from "../sim/hourly";
import { buildPeriodReport, type ClusterHour } from "./period-report";
import { epochAt, type TreeEpoch } from "./weights-in-force";

const DAY_SEC = 86_400;
/** Periods longer than this are charted by week, not by day. */
export const MAX_DAILY_BUCKETS = 62;

/** Entitled vs received GPU-hours of every node, per day (or week) of a period. */
export type PeriodSeries = {
  /** Start of each bucket, epoch seconds. */
  bucketStartSec: number[];
  bucketSec: number;
  /** By node id; each array has one value per bucket. */
  byNode: Record<string, { entitled: number[]; allocated: number[]; unallocated: number[] }>;
};

const round2 = (value: number) => roundTo(value, 2);

/**
 * The period's entitled and received GPU-hours per node and day (per week past 62 days),
 * each bucket computed exactly as the period report (weights in force per hour). Hours
 * outside [fromSec, toSec) are ignored. Values are rounded to 0.01 GPU-hour.
 *
 * @example buildPeriodSeries(epochs, hours, 0, 2 * 86_400).bucketStartSec // [0, 86400]
 */
export function buildPeriodSeries(
  epochs: readonly TreeEpoch[],
  hours: readonly ClusterHour[],
  fromSec: number,
  toSec: number,
): PeriodSeries {
  const days = Math.ceil((toSec - fromSec) / DAY_SEC);
  const bucketSec = days > MAX_DAILY_BUCKETS ? 7 * DAY_SEC : DAY_SEC;
  const count = Math.max(0, Math.ceil((toSec - fromSec) / bucketSec));
  const groups: ClusterHour[][] = Array.from({ length: count }, () => []);
  for (const hour of hours) {
    if (hour.hourStartSec < fromSec || hour.hourStartSec >= toSec) continue;
    groups[Math.floor((hour.hourStartSec - fromSec) / bucketSec)]!.push(hour);
  }
  const byNode: PeriodSeries["byNode"] = {};
  groups.forEach((group, index) => {
    if (group.length === 0) return;
    for (const node of buildPeriodReport(epochs, group).nodes) {
      const series = (byNode[node.id] ??= {
        entitled: new Array<number>(count).fill(0),
        allocated: new Array<number>(count).fill(0),
        unallocated: new Array<number>(count).fill(0),
      });
      series.entitled[index] = round2(node.entitledGpuHours);
      series.allocated[index] = round2(node.receivedAllocatedGpuHours);
      series.unallocated[index] = round2(node.receivedUnallocatedGpuHours);
    }
  });
  return {
    bucketStartSec: Array.from({ length: count }, (_, index) => fromSec + index * bucketSec),
    bucketSec,
    byNode,
  };
}

/** Usage ratios on one cluster at one moment: usage(n) / (share x capacity x W). */
export type ClusterUsageRatios = {
  cluster: string;
  atSec: number;
  lookbackSec: number;
  /** Mean healthy GPUs over the window's hours that have roll-ups. */
  capacityGpus: number;
  /** By node id; null where the share is 0. */
  ratios: Record<string, number | null>;
};

/**
 * The usage ratio of every node on each cluster at `atSec` (DESIGN section 4, the metric the
 * queue is sorted by), from hourly roll-ups: allocated GPU-seconds of the hours in
 * [atSec - W, atSec), the weights in force just before `atSec`, through the engine's Fair
 * Tree ranking. `atSec` should be on an hour boundary. Clusters without roll-ups in their
 * window, or with no tree in force, are left out.
 *
 * @example usageRatiosAt(epochs, hours, toSec, [{ name: "h100", lookbackSec: 604800 }])[0].ratios
 */
export function usageRatiosAt(
  epochs: readonly TreeEpoch[],
  hours: readonly ClusterHour[],
  atSec: number,
  clusters: readonly { name: string; lookbackSec: number }[],
): ClusterUsageRatios[] {
  const epoch = epochAt(epochs, atSec - 1);
  if (!epoch) return [];
  const out: ClusterUsageRatios[] = [];
  for (const cluster of clusters) {
    const fromSec = atSec - cluster.lookbackSec;
    const leafUsage: Record<string, number> = Object.create(null) as Record<string, number>;
    let capacityGpuSec = 0;
    let hourCount = 0;
    for (const hour of hours) {
      if (hour.cluster !== cluster.name || hour.hourStartSec < fromSec) continue;
      if (hour.hourStartSec >= atSec) continue;
      capacityGpuSec += hour.capacityGpuSec;
      hourCount += 1;
      for (const [leafId, leaf] of Object.entries(hour.leaves)) {
        leafUsage[leafId] = (leafUsage[leafId] ?? 0) + leaf.allocatedGpuSec;
      }
    }
    if (hourCount === 0) continue;
    const capacityGpus = capacityGpuSec / (hourCount * 3600);
    const ranking = rankBudgets(epoch.tree, leafUsage, {
      capacityGpus,
      windowSec: cluster.lookbackSec,
    });
    out.push({
      cluster: cluster.name,
      atSec,
      lookbackSec: cluster.lookbackSec,
      capacityGpus,
      ratios: Object.fromEntries(ranking.rows.map((row) => [row.id, row.usageRatio])),
    });
  }
  return out;
}
