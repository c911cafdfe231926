import { computeFulfilment, computeHourEntitlement, type HourFlows } from "../engine";
import { epochAt, type TreeEpoch } from "./weights-in-force";

const SEC_PER_HOUR = 3600;

/** One leaf's flows in one hour, in GPU-seconds. */
export type LeafHour = { demandGpuSec: number; allocatedGpuSec: number; unallocatedGpuSec: number };

/** One cluster-hour of roll-ups (docs/fulfilment.md). */
export type ClusterHour = {
  cluster: string;
  hourStartSec: number;
  /** GPU-seconds of GPUs in service during the hour (a drained node is not: ADR 099). */
  capacityGpuSec: number;
  /** By leaf budget id; absent leaves had nothing. */
  leaves: Record<string, LeafHour>;
};

/** A tree node over the period, summed over hours and clusters. */
export type NodePeriod = {
  id: string;
  path: string;
  name: string;
  parentId: string | null;
  isLeaf: boolean;
  /**
   * The share in force over the period: the mean of the node's effective share over the hours
   * the report reads, each hour once whatever the clusters, an hour the node was not in the tree
   * (before it was created, after it was removed) counting as 0. Times the GPU-hours in service
   * it is what the node was owed before demand capped it, so it agrees with `entitledGpuHours`.
   */
  effectiveShare: number;
  demandGpuHours: number;
  /** Sum over hours of min(share x capacity x 1 h, demand). */
  entitledGpuHours: number;
  /** Sum over hours of the work-conserving entitlement. */
  workConservingGpuHours: number;
  receivedAllocatedGpuHours: number;
  receivedUnallocatedGpuHours: number;
  receivedGpuHours: number;
  /**
   * The period's fulfilment (docs/fulfilment.md): of a leaf, min(1, received / entitled); of an
   * inner node, over its funded leaves, sum of min(received, entitled) / sum of entitled. Null
   * when nothing was entitled.
   */
  fulfilment: number | null;
  /** The stricter hour-by-hour figure: sum over hours of min(received, entitled) / sum entitled. */
  hourlyFulfilment: number | null;
};

export type ClusterPeriod = {
  cluster: string;
  capacityGpuHours: number;
  busyGpuHours: number;
  /** busy / in-service GPU-hours; null with no capacity. */
  utilisation: number | null;
  /** unallocated / all granted GPU-hours; null when nothing ran. */
  unallocatedShare: number | null;
};

/** One bucket of time (e.g. a UTC day) of a node: capped entitlement and receipts, GPU-hours. */
export type BucketFlow = {
  entitledGpuHours: number;
  receivedGpuHours: number;
  receivedAllocatedGpuHours: number;
  receivedUnallocatedGpuHours: number;
};

export type PeriodReport = {
  nodes: NodePeriod[];
  /** Only with `bucketSec`: per bucket [startSec, startSec + bucketSec), by node id. */
  buckets?: { startSec: number; nodes: Record<string, BucketFlow> }[];
  clusters: ClusterPeriod[];
  headline: {
    utilisation: number | null;
    unallocatedShare: number | null;
    /** Over all funded leaves: sum of min(received, entitled) / sum of entitled. */
    fulfilment: number | null;
    /** The hour-by-hour figure over the same leaves. */
    hourlyFulfilment: number | null;
    /** Leaves entitled to something in the period (a share and some demand). */
    fundedBudgets: number;
    fundedAtLeast95: number;
    /**
     * The least served funded leaf: lowest fulfilment, ties (every budget at 100%, say) by the
     * lowest hour-by-hour figure.
     */
    worst: { path: string; fulfilment: number; hourlyFulfilment: number } | null;
  };
};

type Sums = Omit<NodePeriod, "fulfilment" | "hourlyFulfilment"> & { fulfilledGpuHours: number };

const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/**
 * The review of a period (docs/fulfilment.md): per tree node, entitled vs received GPU-hours
 * and fulfilment, with each hour using the weights in force in that hour; per cluster,
 * utilisation and the unallocated share; headline figures over all clusters. An hour that
 * began before the first epoch is read with the first one (see `epochOfHour`), so the lab's
 * row holds every busy GPU-hour of the cluster figures. With `bucketSec` (e.g. 86,400), also the
 * entitled and received hours of every node per bucket of that length (aligned on multiples of
 * it), from the same hourly computation. Pure: roll-ups in, numbers out.
 *
 * @example buildPeriodReport(epochs, hours).headline.fulfilment // 0.97
 */
export function buildPeriodReport(
  epochs: readonly TreeEpoch[],
  hours: readonly ClusterHour[],
  options: { bucketSec?: number } = {},
): PeriodReport {
  const sums = new Map<string, Sums>();
  const buckets = new Map<number, Record<string, BucketFlow>>();
  const clusters = new Map<string, ClusterPeriod>();
  /** Unallocated GPU-hours by cluster, and over all clusters (under the key ""). */
  const unallocated = new Map<string, number>([["", 0]]);
  /** The tree each hour was read with, by its start (the clusters of one hour share it). */
  const treeOfHour = new Map<number, TreeEpoch | undefined>();
  for (const hour of hours) {
    const epoch = epochOfHour(epochs, hour.hourStartSec);
    treeOfHour.set(hour.hourStartSec, epoch);
    const cluster = clusters.get(hour.cluster) ?? emptyCluster(hour.cluster);
    clusters.set(hour.cluster, cluster);
    cluster.capacityGpuHours += hour.capacityGpuSec / SEC_PER_HOUR;
    let clusterUnallocated = unallocated.get(hour.cluster) ?? 0;
    let allUnallocated = unallocated.get("")!;
    for (const leaf of Object.values(hour.leaves)) {
      cluster.busyGpuHours += (leaf.allocatedGpuSec + leaf.unallocatedGpuSec) / SEC_PER_HOUR;
      clusterUnallocated += leaf.unallocatedGpuSec / SEC_PER_HOUR;
      allUnallocated += leaf.unallocatedGpuSec / SEC_PER_HOUR;
    }
    unallocated.set(hour.cluster, clusterUnallocated).set("", allUnallocated);
    if (!epoch) continue;
    const rows = computeHourEntitlement(
      epoch.tree,
      hour.capacityGpuSec / SEC_PER_HOUR,
      hourFlowsOf(hour.leaves),
    );
    const bucket = options.bucketSec
      ? bucketOf(buckets, hour.hourStartSec, options.bucketSec)
      : null;
    rows.forEach((row, index) => {
      const node = epoch.tree.nodes[index]!;
      if (bucket) {
        const flow = (bucket[row.id] ??= {
          entitledGpuHours: 0,
          receivedGpuHours: 0,
          receivedAllocatedGpuHours: 0,
          receivedUnallocatedGpuHours: 0,
        });
        flow.entitledGpuHours += row.entitledGpuHours;
        flow.receivedGpuHours += row.receivedGpuHours;
        flow.receivedAllocatedGpuHours += row.receivedAllocatedGpuHours;
        flow.receivedUnallocatedGpuHours += row.receivedUnallocatedGpuHours;
      }
      const sum = sums.get(row.id) ?? emptySums(node);
      sums.set(row.id, sum);
      sum.demandGpuHours += row.demandGpuHours;
      sum.entitledGpuHours += row.entitledGpuHours;
      sum.workConservingGpuHours += row.workConservingGpuHours;
      sum.receivedAllocatedGpuHours += row.receivedAllocatedGpuHours;
      sum.receivedUnallocatedGpuHours += row.receivedUnallocatedGpuHours;
      sum.receivedGpuHours += row.receivedGpuHours;
      sum.fulfilledGpuHours += row.fulfilledGpuHours;
    });
  }
  const meanShares = meanSharesOf(treeOfHour);
  for (const sum of sums.values()) sum.effectiveShare = meanShares.get(sum.id) ?? 0;
  const ordered = orderNodes(epochs, sums);
  const fundedLeavesOf = fundedLeavesBelow(ordered);
  const nodes = ordered.map(({ fulfilledGpuHours, ...sum }) => ({
    ...sum,
    fulfilment: computeFulfilment(fundedLeavesOf.get(sum.id) ?? []),
    hourlyFulfilment: ratio(fulfilledGpuHours, sum.entitledGpuHours),
  }));
  const clusterList = [...clusters.values()]
    .sort((a, b) => a.cluster.localeCompare(b.cluster))
    .map((cluster) => finishCluster(cluster, unallocated.get(cluster.cluster)!));
  const report: PeriodReport = {
    nodes,
    clusters: clusterList,
    headline: headlineOf(nodes, clusterList, unallocated.get("")!),
  };
  if (options.bucketSec) {
    report.buckets = [...buckets.entries()]
      .sort(([a], [b]) => a - b)
      .map(([startSec, flows]) => ({ startSec, nodes: flows }));
  }
  return report;
}

/**
 * The tree an hour is read with: the one in force at its start or, for an hour that began
 * before any weights were recorded (or while no tree existed), the next one to come into force.
 * The demo's history starts at an odd second, with its weights: its first hour began before
 * them but its GPU time was used under them. Skipped, that hour's busy GPU-hours were in the
 * cluster figures and in no budget's row.
 */
function epochOfHour(epochs: readonly TreeEpoch[], hourStartSec: number): TreeEpoch | undefined {
  return epochAt(epochs, hourStartSec) ?? epochs.find((epoch) => epoch.fromSec > hourStartSec);
}

/**
 * Each node's effective share averaged over the hours (by start) and the trees they were read
 * with, absent nodes counting as 0. Not the last hour's: a weight raised just now, or a budget
 * created minutes ago, would show a share that the period's entitled hours contradict.
 */
function meanSharesOf(treeOfHour: ReadonlyMap<number, TreeEpoch | undefined>): Map<string, number> {
  const hourCountByTree = new Map<TreeEpoch, number>();
  for (const epoch of treeOfHour.values()) {
    if (epoch) hourCountByTree.set(epoch, (hourCountByTree.get(epoch) ?? 0) + 1);
  }
  const shareHours = new Map<string, number>();
  for (const [epoch, count] of hourCountByTree) {
    for (const node of epoch.tree.nodes) {
      shareHours.set(node.id, (shareHours.get(node.id) ?? 0) + node.effectiveShare * count);
    }
  }
  const shares = new Map<string, number>();
  for (const [id, total] of shareHours) shares.set(id, total / treeOfHour.size);
  return shares;
}

function bucketOf(
  buckets: Map<number, Record<string, BucketFlow>>,
  hourStartSec: number,
  bucketSec: number,
): Record<string, BucketFlow> {
  const startSec = Math.floor(hourStartSec / bucketSec) * bucketSec;
  let bucket = buckets.get(startSec);
  if (!bucket) {
    bucket = Object.create(null) as Record<string, BucketFlow>;
    buckets.set(startSec, bucket);
  }
  return bucket;
}

/** An hour's flows per leaf in GPU-hours, the three records made in one walk of the leaves. */
function hourFlowsOf(leaves: Record<string, LeafHour>): HourFlows {
  const flows: HourFlows = {
    demandGpuHours: Object.create(null) as Record<string, number>,
    receivedAllocatedGpuHours: Object.create(null) as Record<string, number>,
    receivedUnallocatedGpuHours: Object.create(null) as Record<string, number>,
  };
  for (const id in leaves) {
    const leaf = leaves[id]!;
    flows.demandGpuHours[id] = leaf.demandGpuSec / SEC_PER_HOUR;
    flows.receivedAllocatedGpuHours[id] = leaf.allocatedGpuSec / SEC_PER_HOUR;
    flows.receivedUnallocatedGpuHours[id] = leaf.unallocatedGpuSec / SEC_PER_HOUR;
  }
  return flows;
}

function emptyCluster(cluster: string): ClusterPeriod {
  return {
    cluster,
    capacityGpuHours: 0,
    busyGpuHours: 0,
    utilisation: null,
    unallocatedShare: null,
  };
}

function emptySums(node: TreeEpoch["tree"]["nodes"][number]): Sums {
  return {
    id: node.id,
    path: node.path,
    name: node.name,
    parentId: node.parentId,
    isLeaf: node.isLeaf,
    effectiveShare: 0,
    demandGpuHours: 0,
    entitledGpuHours: 0,
    workConservingGpuHours: 0,
    receivedAllocatedGpuHours: 0,
    receivedUnallocatedGpuHours: 0,
    receivedGpuHours: 0,
    fulfilledGpuHours: 0,
  };
}

/** For every node, the funded leaves at or below it (a leaf: itself when it was entitled). */
function fundedLeavesBelow(nodes: readonly Sums[]): Map<string, Sums[]> {
  const parentOf = new Map(nodes.map((node) => [node.id, node.parentId]));
  const below = new Map<string, Sums[]>();
  for (const leaf of nodes) {
    if (!leaf.isLeaf || !(leaf.entitledGpuHours > 0)) continue;
    const seen = new Set<string>();
    for (let id: string | null | undefined = leaf.id; id && !seen.has(id); id = parentOf.get(id)) {
      seen.add(id);
      const list = below.get(id);
      if (list) list.push(leaf);
      else below.set(id, [leaf]);
    }
  }
  return below;
}

/** The latest tree's depth-first order, then nodes that no longer exist. */
function orderNodes(epochs: readonly TreeEpoch[], sums: Map<string, Sums>): Sums[] {
  const ordered: Sums[] = [];
  const seen = new Set<string>();
  for (let index = epochs.length - 1; index >= 0; index -= 1) {
    for (const node of epochs[index]!.tree.nodes) {
      const sum = sums.get(node.id);
      if (sum && !seen.has(node.id)) {
        seen.add(node.id);
        ordered.push(sum);
      }
    }
  }
  return ordered;
}

function finishCluster(cluster: ClusterPeriod, unallocatedGpuHours: number): ClusterPeriod {
  return {
    ...cluster,
    utilisation: ratio(cluster.busyGpuHours, cluster.capacityGpuHours),
    unallocatedShare: ratio(unallocatedGpuHours, cluster.busyGpuHours),
  };
}

function headlineOf(
  nodes: readonly NodePeriod[],
  clusters: readonly ClusterPeriod[],
  unallocatedGpuHours: number,
): PeriodReport["headline"] {
  const busy = clusters.reduce((total, cluster) => total + cluster.busyGpuHours, 0);
  const capacity = clusters.reduce((total, cluster) => total + cluster.capacityGpuHours, 0);
  // Funded: entitled to something in the period (it had a share and demand in some hour).
  const funded = nodes.filter((node) => node.isLeaf && node.entitledGpuHours > 0);
  let worst: PeriodReport["headline"]["worst"] = null;
  for (const node of funded) {
    const fulfilment = node.fulfilment!;
    const hourlyFulfilment = node.hourlyFulfilment!;
    if (
      !worst ||
      fulfilment < worst.fulfilment ||
      (fulfilment === worst.fulfilment && hourlyFulfilment < worst.hourlyFulfilment)
    ) {
      worst = { path: node.path, fulfilment, hourlyFulfilment };
    }
  }
  const entitled = funded.reduce((total, node) => total + node.entitledGpuHours, 0);
  return {
    utilisation: ratio(busy, capacity),
    unallocatedShare: ratio(unallocatedGpuHours, busy),
    fulfilment: computeFulfilment(funded),
    hourlyFulfilment: ratio(
      funded.reduce((total, node) => total + node.hourlyFulfilment! * node.entitledGpuHours, 0),
      entitled,
    ),
    fundedBudgets: funded.length,
    fundedAtLeast95: funded.filter((node) => node.fulfilment! >= 0.95).length,
    worst,
  };
}
