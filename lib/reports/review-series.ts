// The review page's charts (docs/fulfilment.md), shaped from the review loader's daily flows and
// usage standings (lib/data/review.ts). Pure.
import { roundTo } from "../sim/hourly";
import type { BucketFlow } from "./period-report";

const DAY_SEC = 86_400;
/** Periods longer than this are charted by week, not by day. */
export const MAX_DAILY_BUCKETS = 62;

/** Entitled vs received GPU-hours of every node, per day (or week) of a period. */
export type PeriodSeries = {
  /** Start of each bucket, epoch seconds. */
  bucketStartSec: number[];
  bucketSec: number;
  /** Per bucket: whether any roll-up hour fell in it. A bucket without one has no figures. */
  isRecorded: boolean[];
  /** By node id; each array has one value per bucket. */
  byNode: Record<string, { entitled: number[]; allocated: number[]; unallocated: number[] }>;
};

/** Usage ratios on one cluster at one moment: usage(n) / (share x capacity x W). */
export type ClusterUsageRatios = {
  cluster: string;
  atSec: number;
  lookbackSec: number;
  /** The cluster's GPUs, as the queue ranks (docs/ranking.md). */
  capacityGpus: number;
  /** By node id; null where the share is 0. */
  ratios: Record<string, number | null>;
};

const round2 = (value: number) => roundTo(value, 2);

/**
 * The period's entitled and received GPU-hours per node and day, summed into weeks past 62
 * days (entitlement is capped per hour, so the days add up exactly). Days outside
 * [fromSec, toSec) are ignored; days without roll-ups stay at zero and their bucket is not
 * `isRecorded`. Values are rounded to 0.01 GPU-hour.
 *
 * @example periodSeries([{ dayStartSec: 0, nodes: { a: flow } }], 0, 2 * 86_400).bucketStartSec // [0, 86400]
 */
export function periodSeries(
  daily: readonly { dayStartSec: number; nodes: Readonly<Record<string, BucketFlow>> }[],
  fromSec: number,
  toSec: number,
): PeriodSeries {
  const days = Math.ceil((toSec - fromSec) / DAY_SEC);
  const bucketSec = days > MAX_DAILY_BUCKETS ? 7 * DAY_SEC : DAY_SEC;
  const count = Math.max(0, Math.ceil((toSec - fromSec) / bucketSec));
  const sums: Record<string, { entitled: number[]; allocated: number[]; unallocated: number[] }> =
    {};
  const isRecorded = new Array<boolean>(count).fill(false);
  for (const day of daily) {
    if (day.dayStartSec < fromSec || day.dayStartSec >= toSec) continue;
    const index = Math.floor((day.dayStartSec - fromSec) / bucketSec);
    isRecorded[index] = true;
    for (const [id, flow] of Object.entries(day.nodes)) {
      const series = (sums[id] ??= {
        entitled: new Array<number>(count).fill(0),
        allocated: new Array<number>(count).fill(0),
        unallocated: new Array<number>(count).fill(0),
      });
      series.entitled[index]! += flow.entitledGpuHours;
      series.allocated[index]! += flow.receivedAllocatedGpuHours;
      series.unallocated[index]! += flow.receivedUnallocatedGpuHours;
    }
  }
  const byNode: PeriodSeries["byNode"] = {};
  for (const [id, series] of Object.entries(sums)) {
    byNode[id] = {
      entitled: series.entitled.map(round2),
      allocated: series.allocated.map(round2),
      unallocated: series.unallocated.map(round2),
    };
  }
  return {
    bucketStartSec: Array.from({ length: count }, (_, index) => fromSec + index * bucketSec),
    bucketSec,
    isRecorded,
    byNode,
  };
}

/**
 * The charts' usage ratios from the loader's standings: one map of node id to ratio per
 * cluster. Clusters with no tree in force are left out.
 *
 * @example usageRatiosOf([{ cluster: "h100", atSec, windowSec, capacityGpus: 64, nodes }])[0].ratios
 */
export function usageRatiosOf(
  standings: readonly {
    cluster: string;
    atSec: number;
    windowSec: number;
    capacityGpus: number;
    nodes: readonly { id: string; usageRatio: number | null }[];
  }[],
): ClusterUsageRatios[] {
  return standings
    .filter((standing) => standing.nodes.length > 0)
    .map((standing) => ({
      cluster: standing.cluster,
      atSec: standing.atSec,
      lookbackSec: standing.windowSec,
      capacityGpus: standing.capacityGpus,
      ratios: Object.fromEntries(standing.nodes.map((node) => [node.id, node.usageRatio])),
    }));
}
