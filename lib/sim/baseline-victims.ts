import type { ActiveRun, ClusterNodeState } from "../engine/types";

/**
 * The live preemptible runs that a baseline pass may preempt, by priority level, kept up to date
 * from the runs the simulator reports started and ended, so a pass lists its candidates without
 * scanning every run.
 *
 * @example
 * const pool = createVictimPool(2);
 * pool.add(run, 0);
 * pool.listBelow(1); // [run]
 */
export type VictimPool = {
  /** Adds a run that started at a level below the pool's top (runs must come in start order). */
  add(run: ActiveRun, level: number): void;
  remove(run: ActiveRun, level: number): void;
  /**
   * Runs of a level below `level`, cheapest first: lowest level, then latest start, then start
   * order (the order a stable sort of the running runs by level and latest start gives).
   */
  listBelow(level: number): ActiveRun[];
};

/** Creates an empty {@link VictimPool} for the levels 0 .. `levels` - 1. */
export function createVictimPool(levels: number): VictimPool {
  // Insertion order is start order, so start times never decrease along a level's set.
  const byLevel = Array.from({ length: levels }, () => new Set<ActiveRun>());
  return {
    add(run, level) {
      byLevel[level]?.add(run);
    },
    remove(run, level) {
      byLevel[level]?.delete(run);
    },
    listBelow(level) {
      const list: ActiveRun[] = [];
      for (let below = 0; below < level && below < levels; below++) {
        const runs = Array.from(byLevel[below] as Set<ActiveRun>);
        // Latest start first: walk back over the groups of equal start, each kept in start order.
        let end = runs.length;
        while (end > 0) {
          const startSec = (runs[end - 1] as ActiveRun).startSec;
          let start = end - 1;
          while (start > 0 && (runs[start - 1] as ActiveRun).startSec === startSec) start--;
          for (let i = start; i < end; i++) list.push(runs[i] as ActiveRun);
          end = start;
        }
      }
      return list;
    },
  };
}

function gpusOn(run: ActiveRun, node: number): number {
  let gpus = 0;
  for (const slice of run.placement) if (slice.node === node) gpus += slice.gpus;
  return gpus;
}

/**
 * Chooses which eligible runs the baseline preempts so a job of `gpus` GPUs can start, or null
 * when even all of them would not make room.
 *
 * A job of at most one node goes on the healthy node where preempting (lowest priority first,
 * then latest start) frees enough with the fewest GPUs preempted. A larger job needs
 * ceil(gpus / G) nodes that become wholly free; it takes those with the fewest busy GPUs.
 *
 * @param eligible preemptible runs of a strictly lower priority, cheapest first (lowest
 *   priority, then latest start)
 * @example chooseBaselineVictims(8, runs, nodes, free) // [run] or null
 */
export function chooseBaselineVictims(
  gpus: number,
  eligible: readonly ActiveRun[],
  nodes: readonly ClusterNodeState[],
  free: Int32Array,
): ActiveRun[] | null {
  const sorted = eligible;
  const byNode = new Map<number, ActiveRun[]>();
  for (const run of sorted) {
    for (const slice of run.placement) {
      const list = byNode.get(slice.node) ?? [];
      if (!list.includes(run)) list.push(run);
      byNode.set(slice.node, list);
    }
  }
  const perNode = nodes[0]?.gpus ?? 0;
  if (gpus <= perNode) {
    let best: ActiveRun[] | null = null;
    let bestGpus = Infinity;
    for (const [node, runs] of byNode) {
      if (nodes[node]?.health !== "healthy") continue;
      let gained = free[node] ?? 0;
      const picked: ActiveRun[] = [];
      let pickedGpus = 0;
      for (const run of runs) {
        if (gained >= gpus) break;
        picked.push(run);
        pickedGpus += run.gpus;
        gained += gpusOn(run, node);
      }
      if (gained >= gpus && pickedGpus < bestGpus) {
        best = picked;
        bestGpus = pickedGpus;
      }
    }
    return best;
  }
  // Nodes that are wholly free already are candidates that preempt nothing (busy 0), so they
  // come first; only nodes holding eligible runs (every slice has at least one GPU, so busy > 0)
  // need a record. Counting the free ones instead of listing every node keeps a pass free of
  // per-node allocations.
  const needNodes = Math.ceil(gpus / perNode);
  let wholeFreeNodes = 0;
  for (let node = 0; node < nodes.length; node++) {
    if (free[node] === perNode && !byNode.has(node) && nodes[node]?.health === "healthy")
      wholeFreeNodes++;
  }
  const candidates: { node: number; runs: ActiveRun[]; busy: number }[] = [];
  for (const [node, runs] of byNode) {
    if (nodes[node]?.health !== "healthy") continue;
    let freed = 0;
    for (const run of runs) freed += gpusOn(run, node);
    if ((free[node] ?? 0) + freed === perNode) candidates.push({ node, runs, busy: freed });
  }
  if (wholeFreeNodes + candidates.length < needNodes) return null;
  candidates.sort((a, b) => a.busy - b.busy || a.node - b.node);
  const picked = new Set<ActiveRun>();
  for (const candidate of candidates.slice(0, Math.max(0, needNodes - wholeFreeNodes))) {
    for (const run of candidate.runs) picked.add(run);
  }
  return [...picked];
}
