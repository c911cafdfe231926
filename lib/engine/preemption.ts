import { placementShape, type GpuPool } from "./placement";
import type { NodeSlice } from "./types";

/** A running run as victim selection sees it. */
export type VictimCandidate = {
  id: string;
  isAllocated: boolean;
  /** Leaf rank of its budget (1 = first). */
  rank: number;
  startSec: number;
  gpus: number;
  /** GPUs per pool position. */
  slices: { position: number; gpus: number }[];
};

/** Victims (indices into the candidate list, preference order) and where the job then goes. */
export type PreemptionPlan = { victims: number[]; placement: NodeSlice[] };

type VictimSetCost = {
  hasAllocated: boolean;
  /** Best (smallest) rank among allocated victims; Infinity when there are none. */
  bestAllocatedRank: number;
  lostGpuSeconds: number;
  freedGpus: number;
  position: number;
};

/**
 * Preference between two victims (DESIGN section 4): unallocated first, then the lowest-ranked
 * budget (largest rank number), then the latest start (least progress), then id.
 *
 * @example compareVictims(unallocatedRun, allocatedRun) // < 0
 */
export function compareVictims(a: VictimCandidate, b: VictimCandidate): number {
  if (a.isAllocated !== b.isAllocated) return a.isAllocated ? 1 : -1;
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (a.startSec !== b.startSec) return b.startSec - a.startSec;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function compareCosts(a: VictimSetCost, b: VictimSetCost): number {
  if (a.hasAllocated !== b.hasAllocated) return a.hasAllocated ? 1 : -1;
  if (a.bestAllocatedRank !== b.bestAllocatedRank) {
    return a.bestAllocatedRank > b.bestAllocatedRank ? -1 : 1;
  }
  if (a.lostGpuSeconds !== b.lostGpuSeconds) return a.lostGpuSeconds - b.lostGpuSeconds;
  if (a.freedGpus !== b.freedGpus) return a.freedGpus - b.freedGpus;
  return a.position - b.position;
}

/**
 * Chooses runs to preempt so that a job of `gpus` GPUs can be placed, or returns null when even
 * every allowed preemption would not make room (then nothing is preempted).
 *
 * `runsByPosition[p]` lists candidate indices on position p in `compareVictims` order;
 * `isAllowed(i)` says whether this job may preempt candidate i (unallocated, or unprotected and
 * of a budget ranked strictly below the job's). On each node victims are taken in preference
 * order until the job fits; among nodes the cheapest victim set wins: no allocated victim
 * first, then the worst-ranked best victim, then the fewest GPU-seconds of progress lost, then
 * the fewest GPUs freed, then the lowest node. Gang jobs clear the cheapest whole nodes.
 *
 * @example
 * planPreemption(pool, 8, candidates, runsByPosition, (i) => !candidates[i].isAllocated, 3600)
 */
export function planPreemption(
  pool: GpuPool,
  gpus: number,
  candidates: readonly VictimCandidate[],
  runsByPosition: readonly (readonly number[])[],
  isAllowed: (candidate: number) => boolean,
  nowSec: number,
  isExcluded?: Uint8Array,
): PreemptionPlan | null {
  const shape = placementShape(gpus, pool.nodeSizeGpus);
  const nodeCount = pool.free.length;
  const chosen = new Set<number>();
  const freeAfter = Int32Array.from(pool.free);
  const slices: NodeSlice[] = [];
  const taken = new Uint8Array(nodeCount);

  // Victims needed on one node to reach `need` free GPUs, given victims already chosen.
  const victimsOn = (
    position: number,
    need: number,
  ): { cost: VictimSetCost; ids: number[] } | null => {
    let have = freeAfter[position]!;
    const ids: number[] = [];
    const cost: VictimSetCost = {
      hasAllocated: false,
      bestAllocatedRank: Number.POSITIVE_INFINITY,
      lostGpuSeconds: 0,
      freedGpus: 0,
      position,
    };
    for (const index of runsByPosition[position] ?? []) {
      if (have >= need) break;
      if (chosen.has(index)) continue;
      if (!isAllowed(index)) continue;
      const run = candidates[index]!;
      const onNode = run.slices.find((slice) => slice.position === position)?.gpus ?? 0;
      have += onNode;
      ids.push(index);
      cost.freedGpus += run.gpus;
      cost.lostGpuSeconds += run.gpus * Math.max(0, nowSec - run.startSec);
      if (run.isAllocated) {
        cost.hasAllocated = true;
        cost.bestAllocatedRank = Math.min(cost.bestAllocatedRank, run.rank);
      }
    }
    return have >= need ? { cost, ids } : null;
  };
  const choose = (position: number, ids: number[]): void => {
    taken[position] = 1;
    for (const index of ids) {
      chosen.add(index);
      for (const slice of candidates[index]!.slices) {
        freeAfter[slice.position] = freeAfter[slice.position]! + slice.gpus;
      }
    }
  };
  const isOpen = (position: number): boolean =>
    pool.isUsable[position] === 1 && !isExcluded?.[position] && !taken[position];

  if (shape.wholeNodes > 0) {
    const size = pool.nodeSizeGpus;
    const options: { cost: VictimSetCost; ids: number[] }[] = [];
    for (let position = 0; position < nodeCount; position += 1) {
      if (!isOpen(position) || pool.capacity[position] !== size) continue;
      const option = victimsOn(position, size);
      if (option) options.push(option);
    }
    if (options.length < shape.wholeNodes) return null;
    options.sort((a, b) => compareCosts(a.cost, b.cost));
    for (const option of options.slice(0, shape.wholeNodes)) {
      choose(option.cost.position, option.ids);
      slices.push({ node: pool.indexOf[option.cost.position]!, gpus: size });
    }
  }
  if (shape.remainderGpus > 0) {
    let best: { cost: VictimSetCost; ids: number[] } | null = null;
    for (let position = 0; position < nodeCount; position += 1) {
      if (!isOpen(position)) continue;
      const option = victimsOn(position, shape.remainderGpus);
      if (!option) continue;
      // Among equally cheap nodes prefer the tightest fit, as placement does.
      if (
        !best ||
        compareCosts({ ...option.cost, position: 0 }, { ...best.cost, position: 0 }) < 0 ||
        (compareCosts({ ...option.cost, position: 0 }, { ...best.cost, position: 0 }) === 0 &&
          freeAfter[position]! < freeAfter[best.cost.position]!)
      ) {
        best = option;
      }
    }
    if (!best) return null;
    choose(best.cost.position, best.ids);
    slices.push({ node: pool.indexOf[best.cost.position]!, gpus: shape.remainderGpus });
  }
  slices.sort((a, b) => a.node - b.node);
  const victims = [...chosen].sort((a, b) => compareVictims(candidates[a]!, candidates[b]!));
  return { victims, placement: slices };
}
