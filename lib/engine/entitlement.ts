import type { BudgetTree } from "./types";

/** One hour's flows per leaf id (absent = 0), in GPU-hours. */
export type HourFlows = {
  /**
   * GPU-hours requested by the leaf's jobs that were pending or running during the hour: jobs that
   * ask for an allocation only (`isAllocationDemand`).
   */
  demandGpuHours: Record<string, number>;
  receivedAllocatedGpuHours: Record<string, number>;
  receivedUnallocatedGpuHours: Record<string, number>;
};

/** Entitled and received GPU-hours of one tree node in one hour (docs/fulfilment.md). */
export type HourEntitlement = {
  id: string;
  path: string;
  effectiveShare: number;
  demandGpuHours: number;
  /** Of a leaf, min(effectiveShare x capacity x 1 h, demand); of an inner node, its leaves' sum. */
  entitledGpuHours: number;
  /** Capacity poured down by weight, capped by demand, unused parts flowing to siblings. */
  workConservingGpuHours: number;
  receivedAllocatedGpuHours: number;
  receivedUnallocatedGpuHours: number;
  receivedGpuHours: number;
  /** min(received, entitled) in this hour (an inner node: its leaves' sum): the numerator of the hour-by-hour fulfilment. */
  fulfilledGpuHours: number;
};

/**
 * Whether a job's pending and running time counts as demand (docs/fulfilment.md):
 * only a job that asks for an allocation, a minimum runtime above zero, is owed GPU-hours. A free
 * job (minimum runtime 0) asks to be charged nothing and to use only GPUs no allocated job can
 * use, so it is owed nothing: counted, a budget whose free jobs wait for weeks in a busy cluster
 * would be "entitled" to its whole share for hours it never asked an allocation for (ADR 092).
 *
 * @example isAllocationDemand(0) // false: a free job
 * isAllocationDemand(900) // true
 */
export function isAllocationDemand(minRuntimeSec: number): boolean {
  return minRuntimeSec > 0;
}

/**
 * GPU-hours of an interval that fall in the hour starting at `hourStartSec`: gpus x overlap of
 * [fromSec, toSec) with the hour / 3600. For demand, the interval is when the job was pending
 * or running; for received, when it ran. `toSec: null` means still open (counted to the hour's end).
 *
 * @example overlapGpuHours(8, 1800, null, 0) // 4
 */
export function overlapGpuHours(
  gpus: number,
  fromSec: number,
  toSec: number | null,
  hourStartSec: number,
): number {
  const from = Math.max(fromSec, hourStartSec);
  const to = Math.min(toSec ?? Number.POSITIVE_INFINITY, hourStartSec + 3600);
  return to > from ? (gpus * (to - from)) / 3600 : 0;
}

function rollUp(tree: BudgetTree, byLeaf: Record<string, number>): Float64Array {
  const totals = new Float64Array(tree.nodes.length);
  for (let i = tree.nodes.length - 1; i >= 0; i -= 1) {
    const node = tree.nodes[i]!;
    if (node.isLeaf) totals[i] = byLeaf[node.id] ?? 0;
    else for (const child of node.childIndices) totals[i] = totals[i]! + totals[child]!;
  }
  return totals;
}

/**
 * Entitled and received GPU-hours of every node for one hour (docs/fulfilment.md), indexed like
 * `tree.nodes`. A leaf's capped entitlement is min(share x capacity x 1 h, demand); an inner
 * node sums its subtree's leaves (their demand, entitlement and receipts), so every row of a
 * report adds up to its leaves and a branch's fulfilment is computed from the same hours. Pass
 * the weights in force in that hour.
 *
 * @param capacityGpus GPUs of the cluster during the hour
 * @example computeHourEntitlement(tree, 8, { demandGpuHours: { a: 10 }, ... })[1].entitledGpuHours
 */
export function computeHourEntitlement(
  tree: BudgetTree,
  capacityGpus: number,
  flows: HourFlows,
): HourEntitlement[] {
  const demand = rollUp(tree, flows.demandGpuHours);
  const allocated = rollUp(tree, flows.receivedAllocatedGpuHours);
  const unallocated = rollUp(tree, flows.receivedUnallocatedGpuHours);
  const entitled: Record<string, number> = {};
  const fulfilled: Record<string, number> = {};
  tree.nodes.forEach((node, i) => {
    if (!node.isLeaf) return;
    entitled[node.id] = Math.min(node.effectiveShare * capacityGpus, demand[i]!);
    fulfilled[node.id] = Math.min(allocated[i]! + unallocated[i]!, entitled[node.id]!);
  });
  const entitledTotals = rollUp(tree, entitled);
  const fulfilledTotals = rollUp(tree, fulfilled);
  const workConserving = computeWorkConservingEntitlement(tree, capacityGpus, flows.demandGpuHours);
  return tree.nodes.map((node, i) => ({
    id: node.id,
    path: node.path,
    effectiveShare: node.effectiveShare,
    demandGpuHours: demand[i]!,
    entitledGpuHours: entitledTotals[i]!,
    workConservingGpuHours: workConserving[i]!,
    receivedAllocatedGpuHours: allocated[i]!,
    receivedUnallocatedGpuHours: unallocated[i]!,
    receivedGpuHours: allocated[i]! + unallocated[i]!,
    fulfilledGpuHours: fulfilledTotals[i]!,
  }));
}

/** A budget's GPU-hours over a period, summed over its hours (and clusters). */
export type PeriodFlows = { receivedGpuHours: number; entitledGpuHours: number };

/**
 * Fulfilment over a period (docs/fulfilment.md): the share of its entitled GPU-hours a budget
 * received, min(1, received / entitled), both summed over the period. For a branch or the
 * whole lab pass its funded leaves (those entitled to something): the sum of each one's
 * min(received, entitled) over the sum of their entitled hours, so one budget's surplus never
 * hides another's shortfall. Null when nothing was entitled (no demand), which is neither good
 * nor bad. Hours received beyond the entitlement count in full: a budget that received what it
 * was owed over the period is at 100% whatever the hour it came in.
 *
 * @example computeFulfilment([{ receivedGpuHours: 150, entitledGpuHours: 100 }]) // 1
 * @example computeFulfilment([{ receivedGpuHours: 50, entitledGpuHours: 100 }, { receivedGpuHours: 300, entitledGpuHours: 100 }]) // 0.75
 */
export function computeFulfilment(leaves: readonly PeriodFlows[]): number | null {
  let fulfilled = 0;
  let entitled = 0;
  for (const leaf of leaves) {
    if (!(leaf.entitledGpuHours > 0)) continue;
    fulfilled += Math.min(leaf.receivedGpuHours, leaf.entitledGpuHours);
    entitled += leaf.entitledGpuHours;
  }
  return entitled > 0 ? fulfilled / entitled : null;
}

/**
 * The stricter hour-by-hour fulfilment: sum over hours of min(received, entitled) / sum of
 * entitled, so GPU-hours received in one hour make up for no other hour's shortfall. A second
 * measure beside {@link computeFulfilment}, never the headline. Null when nothing was entitled.
 *
 * @example computeHourlyFulfilment([{ fulfilledGpuHours: 3, entitledGpuHours: 4 }]) // 0.75
 */
export function computeHourlyFulfilment(
  hours: readonly Pick<HourEntitlement, "fulfilledGpuHours" | "entitledGpuHours">[],
): number | null {
  let fulfilled = 0;
  let entitled = 0;
  for (const hour of hours) {
    fulfilled += hour.fulfilledGpuHours;
    entitled += hour.entitledGpuHours;
  }
  return entitled > 0 ? fulfilled / entitled : null;
}

/**
 * The work-conserving entitlement of every node (indexed like `tree.nodes`): the capacity is
 * poured from the root down; at each level it is split among children by weight, each child
 * capped by its demand, and what a capped child leaves flows to its siblings by weight
 * (water-filling). Zero-weight children are owed nothing, so their demand is not counted in
 * their parent's. The root receives min(capacity, counted demand).
 *
 * @param capacityGpuHours GPU-hours to pour (capacity x 1 h for one hour)
 * @example
 * // a (weight 1, demand 1) and b (weight 1, demand 10) share 8: a gets 1, b gets 7.
 * computeWorkConservingEntitlement(tree, 8, { a: 1, b: 10 }) // [8, 1, 7]
 */
export function computeWorkConservingEntitlement(
  tree: BudgetTree,
  capacityGpuHours: number,
  demandGpuHours: Record<string, number>,
): Float64Array {
  const { nodes } = tree;
  const counted = new Float64Array(nodes.length);
  for (let i = nodes.length - 1; i >= 0; i -= 1) {
    const node = nodes[i]!;
    if (node.isLeaf) counted[i] = Math.max(0, demandGpuHours[node.id] ?? 0);
    else {
      for (const child of node.childIndices) {
        if (nodes[child]!.weight > 0) counted[i] = counted[i]! + counted[child]!;
      }
    }
  }
  const poured = new Float64Array(nodes.length);
  poured[0] = Math.min(capacityGpuHours, counted[0]!);
  // Preorder: a parent's amount is known before its children are visited.
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i]!;
    if (node.isLeaf) continue;
    const active = node.childIndices.filter(
      (child) => nodes[child]!.weight > 0 && counted[child]! > 0,
    );
    // Children that saturate first (smallest demand per weight) are settled first.
    active.sort((a, b) => counted[a]! / nodes[a]!.weight - counted[b]! / nodes[b]!.weight || a - b);
    let remaining = poured[i]!;
    let weightLeft = active.reduce((sum, child) => sum + nodes[child]!.weight, 0);
    for (const child of active) {
      const weight = nodes[child]!.weight;
      const amount = Math.min(counted[child]!, (remaining * weight) / weightLeft);
      poured[child] = amount;
      remaining -= amount;
      weightLeft -= weight;
    }
  }
  return poured;
}
