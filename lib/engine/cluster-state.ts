import { createBudgetSlots, type BudgetSlots } from "./budget-slots";
import { heldOn, loadNodes } from "./cluster-nodes";
import { endLoadedRun, loadRunList, loadStandingRuns, type RunLoading } from "./cluster-runs";
import { preemptionOutcome } from "./contract";
import { createHoldings, createHoldingsOn, type Holdings } from "./holdings";
import type { LiveRun } from "./live-run";
import { beginNodeRunsPass, type NodeRuns } from "./node-runs";
import type { FastPassInput } from "./pass-types";
import { createPositionLookup, type FreeGpuBounds, type GpuPool } from "./placement";
import type { PreemptableTotals } from "./preemptable-totals";
import { compareVictims, type VictimSlot } from "./preemption";
import type { BudgetRef, DrainCompleteDecision, PreemptDecision, PreemptReason } from "./reasons";
import { heldByTreeNode, treeNodeBySlot, type StandingRunsState } from "./standing-runs";
import type { ActiveRun, BudgetTree } from "./types";
import { usableFreeBounds } from "./usable-free";

/** The cluster as a pass works on it: GPUs, runs still holding them, decisions so far. */
export type ClusterState = {
  pool: GpuPool;
  /**
   * Input runs first, then new starts. From a list: the runs not on a down node, in input order.
   * From standing runs: every entry in the order runs were added, gaps and runs ended on a
   * down node marked gone.
   */
  live: LiveRun[];
  /** Indices into `live` of the runs holding GPUs on each pool position. */
  heldByPosition: number[][];
  /** Entries of `live` loaded before the pass's starts: only those can be victims. */
  loadedCount: number;
  /** Slots of the budgets of `live` (and of jobs started in the pass, given as they start). */
  budgetSlots: BudgetSlots;
  /** Leaf rank per budget slot, for the slots of the loaded runs. */
  rankBySlot: readonly number[];
  /**
   * What preemption could free among the loaded runs, from standing runs (GPUs on down and
   * draining nodes counted too); null for runs given as a list or standing runs that overfill a
   * node (count the loaded runs).
   */
  preemptable: PreemptableTotals | null;
  /**
   * The bounds of free GPUs on usable positions as loaded, from the standing runs' counts (a new
   * object, for the pass to change); null when a pass must count them itself.
   */
  freeBounds: FreeGpuBounds | null;
  /**
   * The allocated GPUs held on `tree` by the runs loaded and not ended while loading (the share
   * guard's holdings, a new object for the pass to change). Call it before the pass ends or
   * starts a run.
   */
  loadHoldings: (tree: BudgetTree) => Holdings;
  /**
   * The tree node of each budget slot on `tree`, as far as looked up (`Holdings.nodeIndexOf`):
   * the pass fills it as it asks. Standing runs keep it from pass to pass (their slots stay).
   */
  nodeBySlotOn: (tree: BudgetTree) => number[];
  preemptions: PreemptDecision[];
  drainsCompleted: DrainCompleteDecision[];
  /**
   * Unprotected runs on healthy positions, in `compareVictims` order, with their GPUs there, by
   * position: the lists of `positions` (every position when none is given), each built on the
   * first call that asks for it (most passes never preempt). Runs started in the pass are never
   * victims; runs ended in it may be left out of a list built after (they are no victims).
   */
  victimsByPosition: (positions?: readonly number[]) => VictimSlot[][];
  /** Ends a live run now: frees its GPUs and records the preemption. */
  endRun: (entry: LiveRun, reason: PreemptReason) => void;
  /**
   * The standing runs' summary per position, for this pass (`touchNodeRuns` where the pass starts
   * a run); null for runs given as a list.
   */
  nodeRuns: NodeRuns | null;
  /** Called once the pass is done: gives standing runs back their state before the pass. */
  finish: () => void;
};

/**
 * Loads nodes and runs for a pass (internal): runs touching a down node end at once, protected
 * or not; unprotected runs touching a draining node are preempted; draining nodes left empty are
 * reported. Throws on broken invariants: a run on an unknown node, a node over capacity.
 *
 * @example loadClusterState(input, rankOf, budgetRef).preemptions // node-down and drain ones
 */
export function loadClusterState(
  input: FastPassInput,
  rankOf: (budgetId: string) => number,
  budgetRef: (budgetId: string) => BudgetRef,
): ClusterState {
  const { cluster, nowSec } = input;
  const standing = Array.isArray(input.runs) ? null : (input.runs as StandingRunsState);
  // Health and position per node index, in flat arrays: loading reads them for every run of
  // every pass. Standing runs keep them while the nodes stay as they were.
  const { pool, healthAt, downAt, drainingAt } = loadNodes(standing, cluster.nodes);
  const positionOf = standing?.positionOf ?? createPositionLookup(pool);
  // Standing runs that fit their nodes: their running totals are the pool's, and only the runs
  // on down or draining nodes need a look.
  const isTotalled = standing !== null && standing.overfilledCount === 0;
  if (isTotalled) pool.free.set(standing!.free);
  const live: LiveRun[] = standing?.entries ?? [];
  const heldByPosition: number[][] = standing?.heldByPosition ?? [];
  const nodeRuns = standing?.nodeRuns ?? null;
  // Before the entries are ranked below: the sums are taken when first read, after loading.
  if (nodeRuns) beginNodeRunsPass(nodeRuns, live, heldByPosition);
  const budgetSlots = standing?.budgetSlots ?? createBudgetSlots();
  // Slots given to runs of a list get their rank once the list is loaded. Standing runs keep the
  // last pass's ranks while its ranking holds (the same lookup) and no slot came since.
  const rankBySlot =
    standing?.rankOfSeen === rankOf && standing.rankBySlotSeen.length === budgetSlots.ids.length
      ? standing.rankBySlotSeen
      : budgetSlots.ids.map(rankOf);
  // Totals count the GPUs of down and draining nodes too: an upper bound there (it over-counts),
  // and the runs there are checked one by one (gone, or on nodes no plan uses).
  const preemptable = isTotalled ? standing!.preemptable.totalsAt(nowSec, live) : null;
  for (let position = heldByPosition.length; position < pool.free.length; position += 1) {
    heldByPosition.push([]);
  }

  const loading: RunLoading = {
    nowSec,
    pool,
    healthAt,
    downAt,
    positionOf,
    live,
    heldByPosition,
    nodeRuns,
    budgetRef,
    preemptions: [],
    endedAllocated: [],
    ended: [],
  };
  if (standing) {
    loadStandingRuns(loading, standing, rankOf, rankBySlot, isTotalled, preemptable !== null);
  } else {
    loadRunList(loading, input.runs as readonly ActiveRun[], budgetSlots, rankOf, rankBySlot);
  }
  preemptDraining(loading, drainingAt);
  const loadedCount = live.length;
  return {
    pool,
    live,
    heldByPosition,
    loadedCount,
    budgetSlots,
    rankBySlot,
    preemptable,
    freeBounds: isTotalled ? keptFreeBounds(standing!, pool, loading.ended) : null,
    loadHoldings: (tree) => loadHoldings(tree, isTotalled ? standing : null, loading),
    nodeBySlotOn: (tree) => (standing ? treeNodeBySlot(standing, tree) : []),
    preemptions: loading.preemptions,
    drainsCompleted: completedDrains(loading, drainingAt),
    victimsByPosition: createVictimLists(pool, live, heldByPosition, loadedCount),
    endRun: (entry, reason) => endLoadedRun(loading, entry, reason),
    nodeRuns,
    // Standing runs get back to what they were: the pass's starts come off their lists.
    finish: () => {
      if (standing) restoreStanding(loading, loadedCount);
    },
  };
}

/** Unprotected runs touching a draining node are preempted. */
function preemptDraining(loading: RunLoading, drainingAt: readonly number[]): void {
  const { live, healthAt, positionOf, nowSec } = loading;
  for (const index of heldOn(drainingAt, loading.heldByPosition)) {
    const entry = live[index]!;
    if (entry.isGone || entry.isProtectedNow) continue;
    const draining = entry.run!.placement.find(
      (slice) => healthAt[positionOf(slice.node)] === "draining",
    );
    if (!draining) continue;
    endLoadedRun(loading, entry, {
      rule: "preempt-drain",
      atSec: nowSec,
      victim: loading.budgetRef(entry.run!.budgetId),
      victimStartSec: entry.startSec,
      protectedUntilSec: entry.protectedUntilSec,
      node: draining.node,
      outcome: preemptionOutcome(entry.run!.isResumable),
    });
  }
}

/** Draining nodes left without runs: ready for maintenance. */
function completedDrains(
  loading: RunLoading,
  drainingAt: readonly number[],
): DrainCompleteDecision[] {
  const { pool, live, heldByPosition, nowSec } = loading;
  const drainsCompleted: DrainCompleteDecision[] = [];
  for (const position of drainingAt) {
    const node = pool.indexOf[position]!;
    if (heldByPosition[position]!.every((index) => live[index]!.isGone)) {
      drainsCompleted.push({ node, reason: { rule: "drain-complete", atSec: nowSec, node } });
    }
  }
  return drainsCompleted;
}

/**
 * The free GPUs of usable positions as the standing runs counted them (a new object), unless a
 * run ended while loading held some there: then null, for the pass to count them.
 */
function keptFreeBounds(
  standing: StandingRunsState,
  pool: GpuPool,
  ended: readonly LiveRun[],
): FreeGpuBounds | null {
  const usableFree = standing.usableFree;
  return usableFree?.isUsable === pool.isUsable &&
    !ended.some((entry) => entry.slices.some((slice) => pool.isUsable[slice.position] === 1))
    ? usableFreeBounds(usableFree, pool.nodeSizeGpus)
    : null;
}

/**
 * The allocated GPUs held on `tree` by the runs loaded and not ended while loading: from the
 * holdings `totalled` standing runs keep from pass to pass (copied), else counted anew.
 */
function loadHoldings(
  tree: BudgetTree,
  totalled: StandingRunsState | null,
  loading: RunLoading,
): Holdings {
  if (totalled) {
    const holdings = createHoldingsOn(tree, heldByTreeNode(totalled, tree).slice());
    for (const entry of loading.endedAllocated) holdings.add(entry.budgetId, -entry.gpus);
    return holdings;
  }
  const holdings = createHoldings(tree, []);
  for (const entry of loading.live) {
    if (!entry.isGone && entry.isAllocated) holdings.add(entry.budgetId, entry.gpus);
  }
  return holdings;
}

/**
 * Victim lists by position (`ClusterState.victimsByPosition`): loaded runs (never this pass's
 * starts), unprotected, on healthy nodes, in preference order (unallocated, worst rank, latest),
 * each built on the first call that asks for it. Protection is fixed for the pass.
 */
function createVictimLists(
  pool: GpuPool,
  live: readonly LiveRun[],
  heldByPosition: readonly (readonly number[])[],
  loadedCount: number,
): (positions?: readonly number[]) => VictimSlot[][] {
  const victimsOn = (position: number): VictimSlot[] => {
    const list: VictimSlot[] = [];
    if (!pool.isUsable[position]) return list;
    for (const index of heldByPosition[position]!) {
      const entry = live[index]!;
      if (index >= loadedCount || entry.isGone || entry.isProtectedNow) continue;
      let gpus = 0;
      for (const slice of entry.slices) {
        if (slice.position === position) {
          gpus = slice.gpus;
          break;
        }
      }
      // Insertion into a short list, stable like a sort.
      const slot = { candidate: index, gpus };
      let at = list.length;
      list.push(slot);
      while (at > 0 && compareVictims(live[list[at - 1]!.candidate]!, entry) > 0) {
        list[at] = list[at - 1]!;
        at -= 1;
      }
      list[at] = slot;
    }
    return list;
  };
  const victims: VictimSlot[][] = [];
  return (positions) => {
    if (positions) for (const position of positions) victims[position] ??= victimsOn(position);
    else
      for (let position = 0; position < heldByPosition.length; position += 1) {
        victims[position] ??= victimsOn(position);
      }
    return victims;
  };
}

/** Gives standing runs back their state before the pass: ends undone, starts taken off. */
function restoreStanding(loading: RunLoading, loadedCount: number): void {
  const { live, heldByPosition } = loading;
  for (const entry of loading.ended) entry.isGone = false;
  for (let index = live.length - 1; index >= loadedCount; index -= 1) {
    for (const slice of live[index]!.slices) heldByPosition[slice.position]!.pop();
  }
  live.length = loadedCount;
}
