import type { ClusterNodeState, NodeSlice } from "@/lib/engine/types";

/**
 * Places a job on free GPUs of healthy nodes, or returns null.
 *
 * A job of at most one node's GPUs goes on one node, best fit (the healthy node with the fewest
 * free GPUs that still hold it, lowest index on a tie) to keep whole nodes free for gang jobs.
 * A larger job takes whole free nodes, lowest indexes first, gang-scheduled.
 *
 * @example placeOnFreeGpus(4, nodes, [8, 5, 8]) // [{ node: 1, gpus: 4 }]
 */
export function placeOnFreeGpus(
  gpus: number,
  nodes: readonly ClusterNodeState[],
  freeGpus: readonly number[],
): NodeSlice[] | null {
  const perNode = nodes[0]?.gpus ?? 0;
  if (gpus <= perNode) {
    let best = -1;
    let bestFree = Infinity;
    for (let i = 0; i < nodes.length; i++) {
      const free = freeGpus[i] ?? 0;
      if (free >= gpus && free < bestFree && nodes[i]?.health === "healthy") {
        best = i;
        bestFree = free;
        if (free === gpus) break;
      }
    }
    return best < 0 ? null : [{ node: best, gpus }];
  }
  const slices: NodeSlice[] = [];
  let left = gpus;
  for (let i = 0; i < nodes.length && left > 0; i++) {
    const node = nodes[i] as ClusterNodeState;
    if (node.health !== "healthy" || freeGpus[i] !== node.gpus) continue;
    const take = Math.min(left, node.gpus);
    slices.push({ node: i, gpus: take });
    left -= take;
  }
  return left > 0 ? null : slices;
}
