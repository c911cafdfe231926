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
        const runs: ActiveRun[] = [];
        for (const run of byLevel[below] as Set<ActiveRun>) runs.push(run);
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

/** Chooses victims for one job; see {@link createVictimChooser}. */
export type ChooseVictims = (
  gpus: number,
  eligible: readonly ActiveRun[],
  nodes: readonly ClusterNodeState[],
  free: Int32Array,
) => ActiveRun[] | null;

/**
 * Makes the baseline's victim chooser for a cluster of `nodeCount` nodes (indices 0 .. n - 1).
 * The chooser answers which eligible runs to preempt so a job of `gpus` GPUs can start, or null
 * when even all of them would not make room.
 *
 * A job of at most one node goes on the healthy node where preempting (lowest priority first,
 * then latest start) frees enough with the fewest GPUs preempted; ties go to the node named
 * first by the eligible runs. A larger job needs ceil(gpus / G) nodes that become wholly free;
 * it takes those with the fewest busy GPUs (then the lowest index), wholly free nodes first.
 *
 * Speed: it is asked about once per pass, so it groups the runs by node in typed arrays kept
 * from call to call instead of allocating a list per node.
 *
 * @example createVictimChooser(4)(8, runs, nodes, free) // [run] or null; `eligible` are
 *   preemptible runs of a strictly lower priority, cheapest first (lowest priority, then latest
 *   start)
 */
export function createVictimChooser(nodeCount: number): ChooseVictims {
  // Per node, for the current call only (`seenInCall` tells which nodes are current): where its
  // runs start in `members`, how many it has, and the last run added (a run is listed once).
  const seenInCall = new Int32Array(nodeCount);
  const firstMember = new Int32Array(nodeCount);
  const memberCount = new Int32Array(nodeCount);
  const lastRun = new Int32Array(nodeCount);
  let call = 0;
  // Nodes in the order the eligible runs name them, and per node its runs (indices into
  // `eligible`, in eligible order), one block per node.
  const seen: number[] = [];
  let members = new Int32Array(64);

  function groupByNode(eligible: readonly ActiveRun[]): void {
    call++;
    seen.length = 0;
    let pairs = 0;
    for (let i = 0; i < eligible.length; i++) {
      for (const { node } of (eligible[i] as ActiveRun).placement) {
        if (seenInCall[node] !== call) {
          seenInCall[node] = call;
          memberCount[node] = 0;
          lastRun[node] = -1;
          seen.push(node);
        }
        if (lastRun[node] === i) continue;
        lastRun[node] = i;
        memberCount[node]!++;
        pairs++;
      }
    }
    if (members.length < pairs) members = new Int32Array(Math.max(pairs, members.length * 2));
    let offset = 0;
    for (const node of seen) {
      firstMember[node] = offset;
      offset += memberCount[node]!;
      memberCount[node] = 0;
      lastRun[node] = -1;
    }
    for (let i = 0; i < eligible.length; i++) {
      for (const { node } of (eligible[i] as ActiveRun).placement) {
        if (lastRun[node] === i) continue;
        lastRun[node] = i;
        members[firstMember[node]! + memberCount[node]!++] = i;
      }
    }
  }

  function runsOn(eligible: readonly ActiveRun[], node: number, count: number): ActiveRun[] {
    const runs: ActiveRun[] = [];
    const first = firstMember[node]!;
    for (let k = first; k < first + count; k++) runs.push(eligible[members[k]!] as ActiveRun);
    return runs;
  }

  function chooseOnOneNode(
    gpus: number,
    eligible: readonly ActiveRun[],
    nodes: readonly ClusterNodeState[],
    free: Int32Array,
  ): ActiveRun[] | null {
    let bestNode = -1;
    let bestCount = 0;
    let bestGpus = Infinity;
    for (const node of seen) {
      if (nodes[node]?.health !== "healthy") continue;
      let gained = free[node] ?? 0;
      let picked = 0;
      let pickedGpus = 0;
      const first = firstMember[node]!;
      for (let k = first; k < first + memberCount[node]! && gained < gpus; k++) {
        const run = eligible[members[k]!] as ActiveRun;
        picked++;
        pickedGpus += run.gpus;
        gained += gpusOn(run, node);
      }
      if (gained >= gpus && pickedGpus < bestGpus) {
        bestNode = node;
        bestCount = picked;
        bestGpus = pickedGpus;
      }
    }
    return bestNode < 0 ? null : runsOn(eligible, bestNode, bestCount);
  }

  function chooseWholeNodes(
    gpus: number,
    eligible: readonly ActiveRun[],
    nodes: readonly ClusterNodeState[],
    free: Int32Array,
    perNode: number,
  ): ActiveRun[] | null {
    // Wholly free nodes preempt nothing (busy 0), so they come first; only nodes holding
    // eligible runs (every slice has at least one GPU, so busy > 0) need sorting.
    const needNodes = Math.ceil(gpus / perNode);
    let wholeFreeNodes = 0;
    for (let node = 0; node < nodes.length; node++) {
      if (free[node] === perNode && seenInCall[node] !== call && nodes[node]?.health === "healthy")
        wholeFreeNodes++;
    }
    const candidates: { node: number; busy: number }[] = [];
    for (const node of seen) {
      if (nodes[node]?.health !== "healthy") continue;
      let freed = 0;
      const first = firstMember[node]!;
      for (let k = first; k < first + memberCount[node]!; k++) {
        freed += gpusOn(eligible[members[k]!] as ActiveRun, node);
      }
      if ((free[node] ?? 0) + freed === perNode) candidates.push({ node, busy: freed });
    }
    if (wholeFreeNodes + candidates.length < needNodes) return null;
    candidates.sort((a, b) => a.busy - b.busy || a.node - b.node);
    const picked = new Set<ActiveRun>();
    for (const { node } of candidates.slice(0, Math.max(0, needNodes - wholeFreeNodes))) {
      for (const run of runsOn(eligible, node, memberCount[node]!)) picked.add(run);
    }
    return [...picked];
  }

  return (gpus, eligible, nodes, free) => {
    groupByNode(eligible);
    const perNode = nodes[0]?.gpus ?? 0;
    return gpus <= perNode
      ? chooseOnOneNode(gpus, eligible, nodes, free)
      : chooseWholeNodes(gpus, eligible, nodes, free, perNode);
  };
}
