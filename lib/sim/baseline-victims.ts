import type { ActiveRun, ClusterNodeState } from "../engine/types";

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
  const needNodes = Math.ceil(gpus / perNode);
  const candidates: { node: number; runs: ActiveRun[]; busy: number }[] = [];
  for (let node = 0; node < nodes.length; node++) {
    if (nodes[node]?.health !== "healthy") continue;
    const runs = byNode.get(node) ?? [];
    const freed = runs.reduce((sum, run) => sum + gpusOn(run, node), 0);
    if ((free[node] ?? 0) + freed === perNode) candidates.push({ node, runs, busy: freed });
  }
  if (candidates.length < needNodes) return null;
  candidates.sort((a, b) => a.busy - b.busy || a.node - b.node);
  const picked = new Set<ActiveRun>();
  for (const candidate of candidates.slice(0, needNodes)) {
    for (const run of candidate.runs) picked.add(run);
  }
  return [...picked];
}
