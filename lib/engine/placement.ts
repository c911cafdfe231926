import type { ClusterNodeState, NodeSlice } from "./types";

/**
 * The GPUs of one cluster during a scheduling pass. Positions 0..n-1 follow the nodes sorted by
 * `ClusterNodeState.index`; `indexOf[position]` maps back. Mutable working state of a pass:
 * never part of an input or output.
 */
export type GpuPool = {
  indexOf: Int32Array;
  /** Node index -> position. */
  positionOf: Map<number, number>;
  capacity: Int32Array;
  free: Int32Array;
  /**
   * 1 when the node takes new runs (healthy), 0 for draining and down nodes. Never written once
   * the pool is made: passes may share it, and counts are kept per array (`canReserve`).
   */
  isUsable: Uint8Array;
  /** G: the largest node. Jobs of more GPUs take whole nodes of this size. */
  nodeSizeGpus: number;
};

/**
 * Upper bounds on what one placement on free GPUs could take, from the healthy nodes: when they
 * rule a job out, `placeJob` would find nothing, and no node needs a look.
 */
export type FreeGpuBounds = {
  /** G, as `GpuPool.nodeSizeGpus`. */
  nodeSizeGpus: number;
  /** Free GPUs on healthy nodes. */
  usableFreeGpus: number;
  /** The most free GPUs of one healthy node. */
  maxNodeFreeGpus: number;
  /** Healthy nodes of G GPUs with every GPU free. */
  wholeFreeNodes: number;
};

/**
 * The bounds of free GPUs on `nodes`, free GPUs given per node index (`freeGpus[node.index]`).
 * O(nodes).
 *
 * @example freeGpuBounds([{ index: 0, gpus: 8, health: "healthy" }], [8]).wholeFreeNodes // 1
 */
export function freeGpuBounds(
  nodes: readonly ClusterNodeState[],
  freeGpus: readonly number[],
): FreeGpuBounds {
  const bounds = { nodeSizeGpus: 0, usableFreeGpus: 0, maxNodeFreeGpus: 0, wholeFreeNodes: 0 };
  for (const node of nodes) bounds.nodeSizeGpus = Math.max(bounds.nodeSizeGpus, node.gpus);
  for (const node of nodes) {
    if (node.health !== "healthy") continue;
    const free = freeGpus[node.index] ?? 0;
    bounds.usableFreeGpus += free;
    if (free > bounds.maxNodeFreeGpus) bounds.maxNodeFreeGpus = free;
    if (free === bounds.nodeSizeGpus && node.gpus === free) bounds.wholeFreeNodes += 1;
  }
  return bounds;
}

/**
 * False only when no placement of `gpus` on free GPUs fits `bounds` (`placeJob` would give null):
 * too few free GPUs in all, no node with enough for a one-node job or the remainder, or too few
 * wholly free nodes.
 *
 * @example mayPlaceWithin({ nodeSizeGpus: 8, usableFreeGpus: 6, maxNodeFreeGpus: 4, wholeFreeNodes: 0 }, 5) // false
 */
export function mayPlaceWithin(bounds: FreeGpuBounds, gpus: number): boolean {
  if (gpus > bounds.usableFreeGpus) return false;
  const size = bounds.nodeSizeGpus;
  if (gpus <= size) return gpus <= bounds.maxNodeFreeGpus;
  return Math.floor(gpus / size) <= bounds.wholeFreeNodes && gpus % size <= bounds.maxNodeFreeGpus;
}

/** Shape of a job's placement (ADR 010): one node, or whole nodes plus a remainder. */
export type PlacementShape = {
  /** Whole nodes of `nodeSizeGpus` GPUs; 0 for a job that fits in one node. */
  wholeNodes: number;
  /** GPUs on one further node: the whole job when wholeNodes is 0, else gpus mod G. */
  remainderGpus: number;
};

/**
 * An empty pool for these nodes (every GPU free). Throws on duplicate node indices.
 *
 * @example createGpuPool([{ index: 0, gpus: 8, health: "healthy" }]).free // Int32Array [8]
 */
export function createGpuPool(nodes: readonly ClusterNodeState[]): GpuPool {
  let isSorted = true;
  for (let i = 1; i < nodes.length && isSorted; i += 1) {
    isSorted = nodes[i - 1]!.index <= nodes[i]!.index;
  }
  const sorted = isSorted ? nodes : [...nodes].sort((a, b) => a.index - b.index);
  const count = sorted.length;
  const pool: GpuPool = {
    indexOf: new Int32Array(count),
    positionOf: new Map(),
    capacity: new Int32Array(count),
    free: new Int32Array(count),
    isUsable: new Uint8Array(count),
    nodeSizeGpus: 0,
  };
  sorted.forEach((node, position) => {
    if (position > 0 && sorted[position - 1]!.index === node.index) {
      throw new RangeError(`Node index ${node.index} appears twice in the cluster.`);
    }
    pool.indexOf[position] = node.index;
    pool.positionOf.set(node.index, position);
    pool.capacity[position] = node.gpus;
    pool.free[position] = node.gpus;
    pool.isUsable[position] = node.health === "healthy" ? 1 : 0;
    pool.nodeSizeGpus = Math.max(pool.nodeSizeGpus, node.gpus);
  });
  return pool;
}

/**
 * How a job of `gpus` GPUs is laid out: a job of at most G GPUs goes on one node; a larger one
 * takes floor(gpus / G) whole nodes at once plus, when gpus is not a multiple of G, the rest on
 * one more node (ADR 010).
 *
 * @example placementShape(20, 8) // { wholeNodes: 2, remainderGpus: 4 }
 */
export function placementShape(gpus: number, nodeSizeGpus: number): PlacementShape {
  if (gpus <= nodeSizeGpus) return { wholeNodes: 0, remainderGpus: gpus };
  return {
    wholeNodes: Math.floor(gpus / nodeSizeGpus),
    remainderGpus: gpus % nodeSizeGpus,
  };
}

/**
 * Places a job on free GPUs now, or returns null (ADR 010). One node by best fit when it fits
 * in one node; otherwise the lowest-indexed fully free whole nodes, all at once, plus the
 * remainder by best fit on another node. Does not change the pool.
 *
 * @returns slices by node index (ascending), summing to `gpus`
 * @example placeJob(pool, 16) // [{ node: 0, gpus: 8 }, { node: 1, gpus: 8 }] on an empty pool
 */
export function placeJob(
  pool: GpuPool,
  gpus: number,
  isExcluded?: Uint8Array,
  free: Int32Array = pool.free,
): NodeSlice[] | null {
  const shape = placementShape(gpus, pool.nodeSizeGpus);
  const positions: number[] = [];
  if (shape.wholeNodes > 0) {
    const size = pool.nodeSizeGpus;
    for (let position = 0; position < free.length; position += 1) {
      if (positions.length === shape.wholeNodes) break;
      // Free GPUs first: on a busy cluster most nodes have too few, and the other tests are left.
      if (free[position] !== size || pool.capacity[position] !== size) continue;
      if (pool.isUsable[position] && !isExcluded?.[position]) positions.push(position);
    }
    if (positions.length < shape.wholeNodes) return null;
  }
  const slices: NodeSlice[] = positions.map((position) => ({
    node: pool.indexOf[position]!,
    gpus: pool.nodeSizeGpus,
  }));
  if (shape.remainderGpus > 0) {
    // The whole nodes taken, if any: a list when few (most jobs take none), else a set.
    const taken = positions.length > 8 ? new Set(positions) : null;
    const isTaken = (position: number): boolean =>
      positions.length > 0 && (taken ? taken.has(position) : positions.includes(position));
    let best = -1;
    let bestFree = Number.POSITIVE_INFINITY;
    // An exact fit cannot be beaten, and ties go to the lowest position: the first one ends it.
    for (
      let position = 0;
      position < free.length && bestFree !== shape.remainderGpus;
      position += 1
    ) {
      const available = free[position]!;
      if (available < shape.remainderGpus || available >= bestFree) continue;
      if (!pool.isUsable[position] || isExcluded?.[position] || isTaken(position)) continue;
      best = position;
      bestFree = available;
    }
    if (best < 0) return null;
    slices.push({ node: pool.indexOf[best]!, gpus: shape.remainderGpus });
    slices.sort((a, b) => a.node - b.node);
  }
  return slices;
}

/**
 * Whether a job could ever be placed on these nodes if all were healthy and empty, for any size:
 * O(nodes) once, then O(1) per question. False means it can never start on this cluster (a
 * clear error, not a wait). Same answer as {@link placeJob} on such a pool: a job of at most G
 * GPUs fits the largest node; a larger one needs floor(gpus / G) nodes of G GPUs plus, for a
 * remainder r, one more node of at least r GPUs.
 *
 * @example createFitCheck([{ index: 0, gpus: 8, health: "down" }])(9) // false
 */
export function createFitCheck(nodes: readonly ClusterNodeState[]): (gpus: number) => boolean {
  let nodeSizeGpus = 0;
  for (const node of nodes) nodeSizeGpus = Math.max(nodeSizeGpus, node.gpus);
  let fullSizeNodes = 0;
  // The largest node smaller than G: where a remainder goes when no G node is left over.
  let largestSmallerGpus = 0;
  for (const node of nodes) {
    if (node.gpus === nodeSizeGpus) fullSizeNodes += 1;
    else largestSmallerGpus = Math.max(largestSmallerGpus, node.gpus);
  }
  return (gpus) => {
    if (!(gpus > 0) || nodeSizeGpus === 0) return false;
    const shape = placementShape(gpus, nodeSizeGpus);
    if (shape.wholeNodes === 0) return true;
    if (fullSizeNodes < shape.wholeNodes) return false;
    if (shape.remainderGpus === 0) return true;
    return fullSizeNodes > shape.wholeNodes || largestSmallerGpus >= shape.remainderGpus;
  };
}

/**
 * Whether the job could ever be placed on these nodes if all were healthy and empty; false
 * means it can never start on this cluster (a clear error, not a wait).
 *
 * @example canEverPlace([{ index: 0, gpus: 8, health: "down" }], 9) // false
 */
export function canEverPlace(nodes: readonly ClusterNodeState[], gpus: number): boolean {
  return createFitCheck(nodes)(gpus);
}

/**
 * Node index -> pool position (-1 for an unknown node): an array lookup when indices are small
 * non-negative integers (the usual 0..n-1), else the pool's map.
 */
export function createPositionLookup(pool: GpuPool): (node: number) => number {
  const count = pool.indexOf.length;
  let maxIndex = -1;
  for (let position = 0; position < count; position += 1) {
    const index = pool.indexOf[position]!;
    if (index < 0) return (node) => pool.positionOf.get(node) ?? -1;
    maxIndex = Math.max(maxIndex, index);
  }
  if (maxIndex > 4 * count + 64) return (node) => pool.positionOf.get(node) ?? -1;
  const byIndex = new Int32Array(maxIndex + 1).fill(-1);
  for (let position = 0; position < count; position += 1)
    byIndex[pool.indexOf[position]!] = position;
  return (node) => (Number.isInteger(node) && node >= 0 && node <= maxIndex ? byIndex[node]! : -1);
}

/**
 * A run's placement by pool position. Throws a RangeError on a placement the engine never makes
 * and cannot reason about: an unknown node, a node given twice, or a slice of other than a
 * positive whole number of GPUs (ready times count on a node's free and held GPUs adding up to
 * its size).
 *
 * @example slicesOf({ id: "r", placement: [{ node: 3, gpus: 8 }] }, positionOf) // [{ position: 3, gpus: 8 }]
 */
export function slicesOf(
  run: { id: string; placement: readonly NodeSlice[] },
  positionOf: (node: number) => number,
): { position: number; gpus: number }[] {
  const slices: { position: number; gpus: number }[] = [];
  for (const slice of run.placement) {
    const position = positionOf(slice.node);
    if (position < 0) {
      throw new RangeError(`Run "${run.id}" is placed on unknown node ${slice.node}.`);
    }
    if (!Number.isInteger(slice.gpus) || slice.gpus <= 0) {
      throw new RangeError(
        `Run "${run.id}" takes ${slice.gpus} GPUs on node ${slice.node}: a slice takes a positive whole number.`,
      );
    }
    for (const earlier of slices) {
      if (earlier.position === position) {
        throw new RangeError(`Run "${run.id}" is placed twice on node ${slice.node}.`);
      }
    }
    slices.push({ position, gpus: slice.gpus });
  }
  return slices;
}
