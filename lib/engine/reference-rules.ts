import { placementShape } from "./placement";
import type { ActiveRun, BudgetTree, ClusterNodeState, NodeSlice, PendingJob } from "./types";
import { SHORT_RESERVE_MIN_NODES } from "./short-reserve";

// The rules of a scheduling pass written plainly, for the reference pass (reference-pass.ts):
// no caches, no bounds, no state kept between calls. Each function reads what it needs from the
// nodes and runs as they are now. Slow on purpose: O(nodes x runs) per question.

/** The nodes of a reference pass, by position (nodes sorted by index). Free GPUs change. */
export type ReferenceNodes = {
  index: number[];
  capacity: number[];
  free: number[];
  isUsable: boolean[];
  /** G, the largest node: a job of more GPUs takes whole nodes of G. */
  sizeGpus: number;
};

/** A run holding GPUs during a reference pass: an input run, or a start of the pass. */
export type ReferenceRun = {
  id: string;
  budgetId: string;
  /** A number per budget, for `describeWaiting`. */
  budgetSlot: number;
  isAllocated: boolean;
  rank: number;
  startSec: number;
  gpus: number;
  slices: { position: number; gpus: number }[];
  protectedUntilSec: number;
  isGone: boolean;
  isProtectedNow: boolean;
  /** The input run; null for a start of this pass (never a victim). */
  run: ActiveRun | null;
};

/** Nodes reserved for the first allocated job that cannot start (ADR 010). */
export type ReferenceReservation = {
  isExcluded: Uint8Array;
  /** Node indices, ascending. */
  nodes: number[];
  /** When every reserved node holds its part, or null when that is unknown (never). */
  readyAtSec: number | null;
};

const PRIORITY_ORDER = { high: 0, normal: 1, low: 2 } as const;

const byId = (a: { id: string }, b: { id: string }): number =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * Queue order (docs/ranking.md, ADR 010): by leaf rank; within one rank, the jobs' places go in
 * submit order (then id), and each place goes to the next job of the budget whose job stands
 * there, its own jobs by priority, submit time, id. With one budget per rank this is the literal
 * key rank, priority, submit time, id; a `high` job never overtakes another budget's job.
 *
 * @example orderJobs(jobs, (budgetId) => ranks[budgetId]!).map((job) => job.id)
 */
export function orderJobs(
  jobs: readonly PendingJob[],
  rankOf: (budgetId: string) => number,
): PendingJob[] {
  const bySubmit = (a: PendingJob, b: PendingJob): number =>
    a.submitSec - b.submitSec || byId(a, b);
  const ranks = [...new Set(jobs.map((job) => rankOf(job.budgetId)))].sort((a, b) => a - b);
  const ordered: PendingJob[] = [];
  for (const rank of ranks) {
    const places = jobs.filter((job) => rankOf(job.budgetId) === rank).sort(bySubmit);
    const own = new Map<string, PendingJob[]>();
    for (const job of places) own.set(job.budgetId, [...(own.get(job.budgetId) ?? []), job]);
    for (const list of own.values()) {
      list.sort(
        (a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] || bySubmit(a, b),
      );
    }
    for (const place of places) ordered.push(own.get(place.budgetId)!.shift()!);
  }
  return ordered;
}

/** The nodes of a cluster by position, every GPU free. */
export function nodesOf(nodes: readonly ClusterNodeState[]): ReferenceNodes {
  const sorted = [...nodes].sort((a, b) => a.index - b.index);
  return {
    index: sorted.map((node) => node.index),
    capacity: sorted.map((node) => node.gpus),
    free: sorted.map((node) => node.gpus),
    isUsable: sorted.map((node) => node.health === "healthy"),
    sizeGpus: Math.max(0, ...sorted.map((node) => node.gpus)),
  };
}

/**
 * A placement on free GPUs of healthy nodes outside `excluded` (ADR 010), or null: a job of at
 * most G GPUs on the node with the fewest free GPUs that holds it (ties: lowest); a larger job on
 * the lowest wholly free nodes of G, the rest on one more node by the same best fit.
 */
export function placeOnFree(
  nodes: ReferenceNodes,
  gpus: number,
  excluded: Uint8Array | null,
): NodeSlice[] | null {
  const shape = placementShape(gpus, nodes.sizeGpus);
  const isOpen = (p: number): boolean => nodes.isUsable[p]! && !excluded?.[p];
  const whole: number[] = [];
  for (let p = 0; p < nodes.free.length && whole.length < shape.wholeNodes; p += 1) {
    const isWholeFree = nodes.capacity[p] === nodes.sizeGpus && nodes.free[p] === nodes.sizeGpus;
    if (isOpen(p) && isWholeFree) whole.push(p);
  }
  if (whole.length < shape.wholeNodes) return null;
  const slices = whole.map((p) => ({ node: nodes.index[p]!, gpus: nodes.sizeGpus }));
  if (shape.remainderGpus > 0) {
    let best = -1;
    for (let p = 0; p < nodes.free.length; p += 1) {
      if (!isOpen(p) || whole.includes(p) || nodes.free[p]! < shape.remainderGpus) continue;
      if (best < 0 || nodes.free[p]! < nodes.free[best]!) best = p;
    }
    if (best < 0) return null;
    slices.push({ node: nodes.index[best]!, gpus: shape.remainderGpus });
  }
  return slices.sort((a, b) => a.node - b.node);
}

/** Allocated GPUs held now by each tree node's subtree (runs not gone; budgets in the tree). */
function heldByTreeNode(tree: BudgetTree, runs: readonly ReferenceRun[]): number[] {
  const held = tree.nodes.map(() => 0);
  for (const run of runs) {
    if (run.isGone || !run.isAllocated) continue;
    const leaf = tree.indexById[run.budgetId];
    for (let at = leaf ?? -1; at >= 0; at = tree.nodes[at]!.parentIndex) held[at]! += run.gpus;
  }
  return held;
}

/**
 * The share guard (ADR 011): where the two budgets' paths part (two siblings below their common
 * ancestor), the preemptor's allocated GPUs per share after the start are at most the victim's
 * after the preemption, or below the victim's before it. Never for one budget, an ancestor, or a
 * budget not in the tree.
 */
export function passesShareGuard(
  tree: BudgetTree,
  runs: readonly ReferenceRun[],
  preemptorId: string,
  victimId: string,
  jobGpus: number,
  victimGpus: number,
): boolean {
  const { nodes } = tree;
  const pathOf = (id: string): number[] => {
    const path: number[] = [];
    for (let at = tree.indexById[id] ?? -1; at >= 0; at = nodes[at]!.parentIndex) path.unshift(at);
    return path;
  };
  const a = pathOf(preemptorId);
  const b = pathOf(victimId);
  let depth = 0;
  while (depth < a.length && depth < b.length && a[depth] === b[depth]) depth += 1;
  if (a.length === 0 || b.length === 0 || depth >= a.length || depth >= b.length) return false;
  const [sideA, sideB] = [a[depth]!, b[depth]!];
  const shareA = nodes[sideA]!.effectiveShare;
  const shareB = nodes[sideB]!.effectiveShare;
  if (shareA <= 0) return false;
  if (shareB <= 0) return true;
  const held = heldByTreeNode(tree, runs);
  const preemptorAfter = (held[sideA]! + jobGpus) * shareB;
  return (
    preemptorAfter <= (held[sideB]! - victimGpus) * shareA || preemptorAfter < held[sideB]! * shareA
  );
}

/** The GPUs a run holds on one position (0 if none). */
export function gpusAt(run: ReferenceRun, position: number): number {
  return run.slices.find((slice) => slice.position === position)?.gpus ?? 0;
}

/**
 * Victim preference (docs/ranking.md): unallocated first, then the lowest-ranked budget, then
 * the latest start, then id.
 */
function compareVictimRuns(a: ReferenceRun, b: ReferenceRun): number {
  if (a.isAllocated !== b.isAllocated) return a.isAllocated ? 1 : -1;
  return b.rank - a.rank || b.startSec - a.startSec || byId(a, b);
}

type VictimCost = { victims: ReferenceRun[]; cost: number[] };

/** Compares costs: no allocated victim, worst best rank, least progress lost, fewest freed. */
function compareCost(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * The victims to take on one position so that it has `need` free GPUs, in preference order, with
 * victims already `chosen` counted as gone; null if the allowed victims there fall short.
 */
function victimsOn(
  nodes: ReferenceNodes,
  candidates: readonly ReferenceRun[],
  position: number,
  need: number,
  freeAfter: readonly number[],
  chosen: ReadonlySet<ReferenceRun>,
  nowSec: number,
): VictimCost | null {
  let have = freeAfter[position]!;
  const victims: ReferenceRun[] = [];
  let [hasAllocated, bestRank, lost, freed] = [0, Number.POSITIVE_INFINITY, 0, 0];
  const here = candidates.filter((run) => !chosen.has(run) && gpusAt(run, position) > 0);
  for (const run of here.sort(compareVictimRuns)) {
    if (have >= need) break;
    have += gpusAt(run, position);
    victims.push(run);
    freed += run.gpus;
    lost += run.gpus * Math.max(0, nowSec - run.startSec);
    if (run.isAllocated) [hasAllocated, bestRank] = [1, Math.min(bestRank, run.rank)];
  }
  if (have < need) return null;
  return { victims, cost: [hasAllocated, -bestRank, lost, freed] };
}

/**
 * Preemption (ADR 010): the victims among `candidates` (allowed runs: unprotected, loaded before
 * the pass's starts) that let a job of `gpus` start now on healthy nodes outside `excluded`, and
 * where it then goes; null when even every candidate is not enough. On each node victims go in
 * preference order until the job fits; a one-node job (or a gang job's remainder) takes the
 * cheapest node (ties: the tightest fit, then the lowest), a gang job the cheapest whole nodes
 * (ties: lowest), chosen before the remainder.
 */
export function planVictims(
  nodes: ReferenceNodes,
  candidates: readonly ReferenceRun[],
  gpus: number,
  excluded: Uint8Array | null,
  nowSec: number,
): { victims: ReferenceRun[]; placement: NodeSlice[] } | null {
  const shape = placementShape(gpus, nodes.sizeGpus);
  const freeAfter = [...nodes.free];
  const chosen = new Set<ReferenceRun>();
  const taken = new Set<number>();
  const placement: NodeSlice[] = [];
  const take = (position: number, need: number): void => {
    for (const run of victimsOn(nodes, candidates, position, need, freeAfter, chosen, nowSec)!
      .victims) {
      chosen.add(run);
      for (const slice of run.slices) freeAfter[slice.position]! += slice.gpus;
    }
    taken.add(position);
    placement.push({ node: nodes.index[position]!, gpus: need });
  };
  const open = nodes.index.map((_, p) => p).filter((p) => nodes.isUsable[p] && !excluded?.[p]);
  const size = nodes.sizeGpus;
  const options = open
    .filter((p) => nodes.capacity[p] === size)
    .map((p) => ({ p, on: victimsOn(nodes, candidates, p, size, freeAfter, chosen, nowSec) }))
    .filter((option) => option.on !== null)
    .sort((a, b) => compareCost(a.on!.cost, b.on!.cost) || a.p - b.p);
  if (options.length < shape.wholeNodes) return null;
  for (const option of options.slice(0, shape.wholeNodes)) take(option.p, size);
  if (shape.remainderGpus > 0) {
    let best: { p: number; cost: number[] } | null = null;
    for (const p of open) {
      if (taken.has(p)) continue;
      const on = victimsOn(nodes, candidates, p, shape.remainderGpus, freeAfter, chosen, nowSec);
      if (!on) continue;
      const order = best ? compareCost(on.cost, best.cost) : -1;
      if (order < 0 || (order === 0 && freeAfter[p]! < freeAfter[best!.p]!)) best = { p, ...on };
    }
    if (!best) return null;
    take(best.p, shape.remainderGpus);
  }
  return {
    victims: [...chosen].sort(compareVictimRuns),
    placement: placement.sort((a, b) => a.node - b.node),
  };
}

/**
 * When a run stops standing in the way of a job of rank `jobRank` (ADR 010): now if unallocated;
 * never if its budget ranks at or above the job's, or if it is unprotected and the share guard
 * keeps it (`isShielded`); else at the end of its protection (now if over).
 */
function releaseAtSec(
  run: ReferenceRun,
  jobRank: number,
  nowSec: number,
  isShielded: (run: ReferenceRun) => boolean,
): number {
  if (!run.isAllocated) return nowSec;
  if (run.rank <= jobRank) return Number.POSITIVE_INFINITY;
  if (run.protectedUntilSec <= nowSec && isShielded(run)) return Number.POSITIVE_INFINITY;
  return Math.max(nowSec, run.protectedUntilSec);
}

/** When a position has `need` free GPUs, runs releasing in time order (fewer GPUs first). */
function readyAtSec(
  nodes: ReferenceNodes,
  runs: readonly ReferenceRun[],
  position: number,
  need: number,
  releaseOf: (run: ReferenceRun) => number,
  nowSec: number,
): number {
  let have = nodes.free[position]!;
  if (have >= need) return nowSec;
  const releases = runs
    .filter((run) => !run.isGone && gpusAt(run, position) > 0)
    .map((run) => ({ atSec: releaseOf(run), gpus: gpusAt(run, position) }))
    .sort((a, b) => a.atSec - b.atSec || a.gpus - b.gpus);
  for (const release of releases) {
    have += release.gpus;
    if (have >= need) return release.atSec;
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * The reservation of a job of `gpus` and rank `jobRank` (ADR 010, 015, 092): its whole nodes on
 * the full-size healthy nodes ready soonest (ties: lowest), or, when those are ready only later
 * than now, on the nodes ready by then with the fewest free GPUs (ties: lowest), its remainder (or the whole job, for a
 * one-node job) on the healthy node ready soonest for it among the rest. Null when the healthy
 * nodes could never hold it.
 */
export function reserveNodes(
  nodes: ReferenceNodes,
  runs: readonly ReferenceRun[],
  gpus: number,
  jobRank: number,
  nowSec: number,
  isShielded: (run: ReferenceRun) => boolean,
): ReferenceReservation | null {
  const shape = placementShape(gpus, nodes.sizeGpus);
  const releaseOf = (run: ReferenceRun): number => releaseAtSec(run, jobRank, nowSec, isShielded);
  const usable = nodes.index.map((_, p) => p).filter((p) => nodes.isUsable[p]);
  const full = usable.filter((p) => nodes.capacity[p] === nodes.sizeGpus);
  const forRemainder = usable.filter((p) => nodes.capacity[p]! >= shape.remainderGpus);
  if (full.length < shape.wholeNodes) return null;
  if (shape.remainderGpus > 0 && forRemainder.length <= shape.wholeNodes) return null;
  const options = full
    .map((p) => ({ p, atSec: readyAtSec(nodes, runs, p, nodes.sizeGpus, releaseOf, nowSec) }))
    .sort((a, b) => a.atSec - b.atSec || a.p - b.p);
  let chosen = options.slice(0, shape.wholeNodes);
  // Spare free nodes (ADR 092): ready only later than now, it takes the nodes ready by then that
  // have the fewest free GPUs (ties: lowest).
  const wholeReadySec = chosen.at(-1)?.atSec ?? nowSec;
  if (Number.isFinite(wholeReadySec) && wholeReadySec > nowSec) {
    chosen = options
      .filter((option) => option.atSec <= wholeReadySec)
      .sort((a, b) => nodes.free[a.p]! - nodes.free[b.p]! || a.p - b.p)
      .slice(0, shape.wholeNodes);
  }
  if (shape.remainderGpus > 0) {
    const rest = forRemainder
      .filter((p) => !chosen.some((option) => option.p === p))
      .map((p) => ({
        p,
        atSec: readyAtSec(nodes, runs, p, shape.remainderGpus, releaseOf, nowSec),
      }))
      .sort((a, b) => a.atSec - b.atSec || a.p - b.p);
    chosen.push(rest[0]!);
  }
  const latestSec = Math.max(...chosen.map((option) => option.atSec));
  const isExcluded = new Uint8Array(nodes.free.length);
  for (const option of chosen) isExcluded[option.p] = 1;
  return {
    isExcluded,
    nodes: chosen.map((option) => nodes.index[option.p]!).sort((a, b) => a - b),
    readyAtSec: Number.isFinite(latestSec) ? latestSec : null,
  };
}

/**
 * The node kept for short jobs (ADR 098): on a cluster of at least 16 healthy full-size nodes,
 * among those with a GPU in use and every run on them allocated and unprotected, the one whose
 * best-ranked run ranks lowest (ties: lowest position); -1 when none.
 */
export function shortReservePosition(nodes: ReferenceNodes, runs: readonly ReferenceRun[]): number {
  const fullNodes = nodes.index.filter(
    (_, position) => nodes.isUsable[position] && nodes.capacity[position] === nodes.sizeGpus,
  ).length;
  if (fullNodes < SHORT_RESERVE_MIN_NODES) return -1;
  let chosen = -1;
  let chosenRank = 0;
  nodes.index.forEach((_, position) => {
    const isCandidate =
      nodes.isUsable[position] === true &&
      nodes.capacity[position] === nodes.sizeGpus &&
      nodes.free[position]! < nodes.sizeGpus;
    if (!isCandidate) return;
    const on = runs.filter((run) => !run.isGone && gpusAt(run, position) > 0);
    if (on.length === 0 || on.some((run) => !run.isAllocated || run.isProtectedNow)) return;
    const bestRank = Math.min(...on.map((run) => run.rank));
    if (bestRank > chosenRank) {
      chosen = position;
      chosenRank = bestRank;
    }
  });
  return chosen;
}
