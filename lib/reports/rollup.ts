import { isAllocationDemand, type NodeHealth } from "../engine";
import { inServiceSpans, spansByNode } from "./in-service";
import { epochAt, type TreeEpoch } from "./weights-in-force";

/** Seconds in one roll-up hour. */
export const ROLLUP_HOUR_SEC = 3600;

/** One placement of a job, as the roll-up reads it. `endSec: null` is still running. */
export type RollupRun = {
  id: string;
  budgetId: string;
  gpus: number;
  startSec: number;
  endSec: number | null;
  isAllocated: boolean;
  /** Runs that ended `preempted` count as preemptions (a node going down does not). */
  isPreempted: boolean;
  /** The indexes of the nodes it held GPUs on: a draining node is in service until they end. */
  nodes: readonly number[];
};

/** A job from submission to its end (`endSec: null` while pending or running): its demand. */
export type RollupJob = {
  id: string;
  budgetId: string;
  gpus: number;
  /** The job's contract: only a job with a minimum runtime above 0 is demand (`isAllocationDemand`). */
  minRuntimeSec: number;
  submitSec: number;
  endSec: number | null;
};

/** A node's GPUs and its health changes in time order; healthy before the first change. */
export type RollupNode = {
  index: number;
  gpus: number;
  changes: readonly { atSec: number; health: NodeHealth }[];
};

/** Everything one cluster's roll-ups over a range of hours are computed from. */
export type RollupInput = {
  clusterId: string;
  /** First hour: the hour containing this moment. */
  fromSec: number;
  /** Nothing counts from here on (the moment of the computation, "now"); the last hour is partial. */
  untilSec: number;
  /** Runs and jobs overlapping the range; others are ignored. */
  runs: readonly RollupRun[];
  jobs: readonly RollupJob[];
  nodes: readonly RollupNode[];
  /** The weights in force over time (lib/reports/weights-in-force.ts). */
  epochs: readonly TreeEpoch[];
};

/** One row of `usage_hourly` (docs/fulfilment.md), GPU-seconds. */
export type UsageHour = {
  clusterId: string;
  /** A leaf; the tree's root for a cluster-hour in which no leaf had anything (capacity only). */
  budgetId: string;
  hourStartSec: number;
  demandGpuSec: number;
  allocatedGpuSec: number;
  unallocatedGpuSec: number;
  healthyCapacityGpuSec: number;
  preemptions: number;
  effectiveShare: number;
};

type LeafBins = {
  demand: Float64Array;
  allocated: Float64Array;
  unallocated: Float64Array;
  preemptions: Int32Array;
};

/** The start of the hour containing `atSec`. */
export function hourStartOf(atSec: number): number {
  return Math.floor(atSec / ROLLUP_HOUR_SEC) * ROLLUP_HOUR_SEC;
}

/**
 * Hourly roll-ups of one cluster (docs/fulfilment.md) for every hour from the one containing
 * `fromSec` to the one containing `untilSec` (exclusive when `untilSec` is an hour boundary),
 * each hour counted up to `untilSec` at most:
 *
 * - demand: GPU-seconds of the leaf's jobs that ask for an allocation (minimum runtime above 0)
 *   from submission to their end (pending or running);
 * - allocated / unallocated: GPU-seconds its runs ran, split by `isAllocated`;
 * - healthy capacity: GPU-seconds of nodes in service: not down, and a draining node only until
 *   its last run ends (docs/decisions/099-drained-nodes-out-of-service.md);
 * - preemptions: its runs that ended preempted in the hour;
 * - effective share: the leaf's share in the tree in force at the hour's start (0 if none).
 *
 * One row per leaf and hour with any demand, receipt or preemption, and one row on the root
 * (zero flows) for an hour in which no leaf had any, so that idle capacity is kept. Inputs are
 * sorted inside, so the same facts in any order give bit-identical rows (an incremental
 * refresh equals a rebuild). Pure.
 *
 * @example
 * // one 8-GPU run from 00:30 to 01:30 on a 16-GPU cluster: 14,400 GPU-s allocated in each hour
 * computeHourlyRollups({ clusterId: "c", fromSec: 0, untilSec: 7200, runs: [run], jobs: [job], nodes, epochs })
 */
export function computeHourlyRollups(input: RollupInput): UsageHour[] {
  const firstHourSec = hourStartOf(input.fromSec);
  const hourCount = Math.max(0, Math.ceil((input.untilSec - firstHourSec) / ROLLUP_HOUR_SEC));
  if (hourCount === 0) return [];
  const bins = new Map<string, LeafBins>();
  const binsOf = (budgetId: string): LeafBins => {
    let leaf = bins.get(budgetId);
    if (!leaf) {
      leaf = {
        demand: new Float64Array(hourCount),
        allocated: new Float64Array(hourCount),
        unallocated: new Float64Array(hourCount),
        preemptions: new Int32Array(hourCount),
      };
      bins.set(budgetId, leaf);
    }
    return leaf;
  };
  const add = (target: Float64Array, fromSec: number, toSec: number | null, rate: number) =>
    addOverHours(target, firstHourSec, fromSec, Math.min(toSec ?? Infinity, input.untilSec), rate);

  for (const job of sortedBy(input.jobs, (job) => job.submitSec)) {
    const bins = binsOf(job.budgetId);
    if (isAllocationDemand(job.minRuntimeSec))
      add(bins.demand, job.submitSec, job.endSec, job.gpus);
  }
  for (const run of sortedBy(input.runs, (run) => run.startSec)) {
    const leaf = binsOf(run.budgetId);
    add(run.isAllocated ? leaf.allocated : leaf.unallocated, run.startSec, run.endSec, run.gpus);
    if (run.isPreempted && run.endSec !== null && run.endSec < input.untilSec) {
      const hour = Math.floor((run.endSec - firstHourSec) / ROLLUP_HOUR_SEC);
      if (hour >= 0 && hour < hourCount) leaf.preemptions[hour]! += 1;
    }
  }
  const capacity = new Float64Array(hourCount);
  const runsOnNode = spansByNode(input.runs);
  for (const node of [...input.nodes].sort((a, b) => a.index - b.index)) {
    for (const span of inServiceSpans(node.changes, runsOnNode.get(node.index) ?? [])) {
      add(capacity, span.startSec, span.endSec, node.gpus);
    }
  }

  const rows: UsageHour[] = [];
  const budgetIds = [...bins.keys()].sort();
  const sharesByTree = new Map<object, Map<string, number>>();
  for (let hour = 0; hour < hourCount; hour += 1) {
    const hourStartSec = firstHourSec + hour * ROLLUP_HOUR_SEC;
    const tree = epochAt(input.epochs, hourStartSec)?.tree;
    let shares = tree ? sharesByTree.get(tree) : undefined;
    if (tree && !shares) {
      shares = new Map(tree.nodes.map((node) => [node.id, node.effectiveShare]));
      sharesByTree.set(tree, shares);
    }
    const shareOf = (id: string) => shares?.get(id);
    const base = {
      clusterId: input.clusterId,
      hourStartSec,
      healthyCapacityGpuSec: capacity[hour]!,
    };
    let isIdle = true;
    for (const budgetId of budgetIds) {
      const leaf = bins.get(budgetId)!;
      const demandGpuSec = leaf.demand[hour]!;
      const allocatedGpuSec = leaf.allocated[hour]!;
      const unallocatedGpuSec = leaf.unallocated[hour]!;
      const preemptions = leaf.preemptions[hour]!;
      if (demandGpuSec + allocatedGpuSec + unallocatedGpuSec === 0 && preemptions === 0) continue;
      isIdle = false;
      rows.push({
        ...base,
        budgetId,
        demandGpuSec,
        allocatedGpuSec,
        unallocatedGpuSec,
        preemptions,
        effectiveShare: shareOf(budgetId) ?? 0,
      });
    }
    const root = tree?.nodes[0] ?? input.epochs[input.epochs.length - 1]?.tree.nodes[0];
    if (isIdle && root && base.healthyCapacityGpuSec > 0) {
      rows.push({
        ...base,
        budgetId: root.id,
        demandGpuSec: 0,
        allocatedGpuSec: 0,
        unallocatedGpuSec: 0,
        preemptions: 0,
        effectiveShare: root.effectiveShare,
      });
    }
  }
  return rows;
}

/** Adds rate x overlap of [fromSec, toSec) with each hour of `bins` (hour 0 at `firstHourSec`). */
function addOverHours(
  bins: Float64Array,
  firstHourSec: number,
  fromSec: number,
  toSec: number,
  rate: number,
): void {
  const from = Math.max(fromSec, firstHourSec);
  const to = Math.min(toSec, firstHourSec + bins.length * ROLLUP_HOUR_SEC);
  if (to <= from || rate === 0) return;
  const first = Math.floor((from - firstHourSec) / ROLLUP_HOUR_SEC);
  const last = Math.min(bins.length - 1, Math.ceil((to - firstHourSec) / ROLLUP_HOUR_SEC) - 1);
  for (let hour = first; hour <= last; hour += 1) {
    const hourStart = firstHourSec + hour * ROLLUP_HOUR_SEC;
    const overlap = Math.min(to, hourStart + ROLLUP_HOUR_SEC) - Math.max(from, hourStart);
    if (overlap > 0) bins[hour]! += rate * overlap;
  }
}

/** A copy sorted by `keyOf`, then id: summing in this order makes results order-independent. */
function sortedBy<T extends { id: string }>(items: readonly T[], keyOf: (item: T) => number): T[] {
  return [...items].sort((a, b) => keyOf(a) - keyOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
