import type { NodeSlice } from "./types";

/** A node as the split needs it: its index, size and health. */
export type SplitNode = { index: number; gpus: number; health: "healthy" | "draining" | "down" };

/** A running run as the split needs it: where it sits and whether it is allocated. */
export type SplitRun = { placement: NodeSlice[]; isAllocated: boolean };

/**
 * A cluster's GPUs cut into parts that never overlap and always add up to `totalGpus`.
 * Health comes first: every GPU of a draining node is in `drainingGpus` (busy or idle) and every
 * GPU of a down node in `downGpus`, so a run on a draining node is counted there once and not
 * again as allocated. The other three parts are the healthy nodes' GPUs.
 */
export type GpuSplit = {
  totalGpus: number;
  /** Healthy nodes, running allocated (charged, protected) work. */
  allocatedGpus: number;
  /** Healthy nodes, running unallocated (free) work. */
  unallocatedGpus: number;
  /** Healthy nodes, nothing running. */
  idleGpus: number;
  /** Every GPU of a draining node, busy or idle. */
  drainingGpus: number;
  /** Of `drainingGpus`, the ones still running work (not a separate part). */
  drainingBusyGpus: number;
  /** Every GPU of a down node. */
  downGpus: number;
  /** GPUs running work on any node, counted once (allocated + unallocated + draining busy + down busy). */
  busyGpus: number;
};

/**
 * Splits a cluster's GPUs by node health and what runs there. A node's busy GPUs are capped at
 * its size (allocated first), so an over-full placement cannot make the parts exceed the total;
 * slices on a node the cluster does not have are ignored.
 *
 * Invariant: allocated + unallocated + idle + draining + down = totalGpus.
 *
 * @example
 * splitGpus(
 *   [{ index: 0, gpus: 8, health: "healthy" }, { index: 1, gpus: 8, health: "draining" }],
 *   [{ placement: [{ node: 0, gpus: 2 }, { node: 1, gpus: 4 }], isAllocated: true }],
 * ) // { totalGpus: 16, allocatedGpus: 2, unallocatedGpus: 0, idleGpus: 6, drainingGpus: 8,
 *   //   drainingBusyGpus: 4, downGpus: 0, busyGpus: 6 }
 */
export function splitGpus(nodes: readonly SplitNode[], runs: readonly SplitRun[]): GpuSplit {
  const used = new Map<number, { allocated: number; unallocated: number }>();
  for (const run of runs) {
    for (const slice of run.placement) {
      const entry = used.get(slice.node) ?? { allocated: 0, unallocated: 0 };
      if (run.isAllocated) entry.allocated += slice.gpus;
      else entry.unallocated += slice.gpus;
      used.set(slice.node, entry);
    }
  }
  const split: GpuSplit = {
    totalGpus: 0,
    allocatedGpus: 0,
    unallocatedGpus: 0,
    idleGpus: 0,
    drainingGpus: 0,
    drainingBusyGpus: 0,
    downGpus: 0,
    busyGpus: 0,
  };
  for (const node of nodes) {
    const onNode = used.get(node.index) ?? { allocated: 0, unallocated: 0 };
    const allocated = Math.min(node.gpus, Math.max(0, onNode.allocated));
    const unallocated = Math.min(node.gpus - allocated, Math.max(0, onNode.unallocated));
    split.totalGpus += node.gpus;
    split.busyGpus += allocated + unallocated;
    if (node.health === "draining") {
      split.drainingGpus += node.gpus;
      split.drainingBusyGpus += allocated + unallocated;
    } else if (node.health === "down") {
      split.downGpus += node.gpus;
    } else {
      split.allocatedGpus += allocated;
      split.unallocatedGpus += unallocated;
      split.idleGpus += node.gpus - allocated - unallocated;
    }
  }
  return split;
}
