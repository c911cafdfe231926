import { createBudgetSlots, type BudgetSlots } from "./budget-slots";
import type { LiveRun, NodesSeen } from "./live-run";
import {
  createGpuPool,
  createPositionLookup,
  slicesOf,
  type FreeGpuBounds,
  type GpuPool,
} from "./placement";
import { addAlongPath, createHoldingsOn } from "./holdings";
import {
  createNodeRuns,
  markAllNodeRunsStale,
  markNodeRunsStale,
  type NodeRuns,
} from "./node-runs";
import {
  createPreemptableTracker,
  guardedPreemptableGpus,
  preemptableGpus,
  type PreemptableTracker,
} from "./preemptable-totals";
import type { ActiveRun, BudgetTree, ClusterNodeState } from "./types";
import { changeUsableFree, usableFreeBounds, type UsableFree } from "./usable-free";

/**
 * The runs of a cluster kept from pass to pass: added as they start, removed as they end
 * (internal to the engine: an `IncrementalScheduler` keeps them).
 */
export type StandingRuns = {
  /** What a pass works on (`runFastPass`'s `runs`). */
  readonly state: StandingRunsState;
  /** Adds a run (its placement checked against the nodes). Throws on a known id or node. */
  add(run: ActiveRun): void;
  /** Removes a run; no-op for an unknown id. */
  remove(runId: string): void;
  /** Whether some run, in start order, passes `test`. */
  some(test: (run: ActiveRun) => boolean): boolean;
  /** Whether some run holds GPUs on one of the nodes of these indices. O(runs there). */
  holdsOn(nodeIndices: readonly number[]): boolean;
  /**
   * How many protections of standing runs have ended by `nowSec` (of runs standing when they
   * ended), counted since the runs were created: an unchanged count between two moments means
   * that no run standing throughout lost its protection in between. `nowSec` must not go back.
   */
  protectionEndsBy(nowSec: number): number;
  /**
   * The budgets of the standing allocated runs whose protection ended after `afterSec` and by
   * `nowSec`, one entry per run. O(runs).
   */
  protectionsEndedIn(afterSec: number, nowSec: number): string[];
  /**
   * An upper bound on the GPUs preemption could free at `nowSec` for an allocated `job` of rank
   * `jobRank` (`rankOf`, as a pass ranks), as a pass on these runs bounds it before it starts
   * anything: those of unallocated runs, and of unprotected runs of budgets ranked below it that
   * the share guard on `tree` lets it preempt (all of them when `isGuarded` is false: a short
   * job's, ADR 092), on every node. `nowSec` must not go back. O(budgets x run sizes).
   */
  preemptableBound(
    tree: BudgetTree,
    nowSec: number,
    job: { budgetId: string; gpus: number },
    jobRank: number,
    rankOf: (budgetId: string) => number,
    isGuarded?: boolean,
  ): number;
  /**
   * The bounds of free GPUs on usable nodes with these runs holding theirs (`freeGpuBounds`), as
   * counted while runs came and went: for `nodes` given to the last pass as the very same frozen
   * array (`ClusterSpec.nodes`), with no node overfilled; null otherwise. O(G).
   */
  freeBounds(nodes: readonly ClusterNodeState[]): FreeGpuBounds | null;
  readonly size: number;
};

/**
 * What a pass works on (internal to the engine): one entry per run in the order runs were added,
 * entries of removed runs kept as gaps (`run` null) until the gaps outnumber the runs, and the
 * entries holding GPUs on each node position. A pass resets the entries' per-pass fields, appends
 * its starts and takes them back off when it ends.
 */
export type StandingRunsState = {
  /** The nodes as when the runs were created, every GPU free: a pass copies what it changes. */
  pool: GpuPool;
  /** Node index -> position in `pool` (-1 for an unknown node). */
  positionOf: (node: number) => number;
  entries: LiveRun[];
  heldByPosition: number[][];
  /** Free GPUs per position once every standing run holds its GPUs (below 0 when overfilled). */
  free: Int32Array;
  /** Positions whose `free` is below 0: while any is, a pass loads every run itself. */
  overfilledCount: number;
  /** `free` on the positions usable at the last pass, counted; null before any pass. */
  usableFree: UsableFree | null;
  /** Scratch for a pass's own free GPUs, reused from pass to pass. */
  passFree: Int32Array;
  /** Allocated GPUs held by the standing runs of each leaf budget. */
  allocatedGpus: Map<string, number>;
  /**
   * The same per node of the last budget tree asked for (`heldByTreeNode`), kept as runs come
   * and go: a pass copies it instead of adding up the budgets. Null before any tree was asked.
   */
  treeHeld: TreeHeld | null;
  /** The slots of the entries' budgets (`LiveRun.budgetSlot`). */
  budgetSlots: BudgetSlots;
  /** GPUs preemption could free, kept as runs come and go. */
  preemptable: PreemptableTracker;
  /** The nodes of the last pass, reused while they stay the same objects with the same fields. */
  nodesSeen: NodesSeen | null;
  /**
   * Rank per budget slot at the last pass (shared with it, read only), the lookup it was read
   * with, and how many entries (from the first) it ranked.
   */
  rankBySlotSeen: number[];
  rankOfSeen: ((budgetId: string) => number) | null;
  rankedCount: number;
  /** Whether entries' `isProtectedNow` is as `preemptable` last set it (a pass may overwrite it). */
  isProtectionKept: boolean;
  /** The allocated runs on each position, summed up as they come and go (`NodeRuns`). */
  nodeRuns: NodeRuns;
};

/** Allocated GPUs per node of `tree` (`Holdings`), and the tree node of each budget slot. */
type TreeHeld = { tree: BudgetTree; held: number[]; nodeBySlot: number[] };

/** The tree node of a budget slot (-1: not in the tree), looked up once per slot and tree. */
function treeNodeOf(treeHeld: TreeHeld, slot: number, budgetId: string): number {
  return (treeHeld.nodeBySlot[slot] ??= treeHeld.tree.indexById[budgetId] ?? -1);
}

/**
 * The tree node of each budget slot of the standing runs on `tree` (-1: not in it), as far as
 * looked up: kept from pass to pass with `heldByTreeNode`'s, for a pass to fill as it asks.
 */
export function treeNodeBySlot(state: StandingRunsState, tree: BudgetTree): number[] {
  heldByTreeNode(state, tree);
  return state.treeHeld!.nodeBySlot;
}

/**
 * Allocated GPUs held by the standing runs per node of `tree` (a run counts for its leaf and
 * every ancestor; budgets outside the tree count nowhere), kept from pass to pass while the same
 * tree is asked for: read only, copy it to change it. O(budgets) for a new tree, else O(1).
 */
export function heldByTreeNode(state: StandingRunsState, tree: BudgetTree): readonly number[] {
  if (state.treeHeld?.tree === tree) return state.treeHeld.held;
  const treeHeld: TreeHeld = {
    tree,
    held: new Array<number>(tree.nodes.length).fill(0),
    nodeBySlot: [],
  };
  state.allocatedGpus.forEach((gpus, budgetId) => {
    addAlongPath(tree, treeHeld.held, tree.indexById[budgetId] ?? -1, gpus);
  });
  state.treeHeld = treeHeld;
  return treeHeld.held;
}

/**
 * Runs kept between passes, for callers that see them change by small deltas (the simulator,
 * ADR 012): a pass then spends nothing on loading runs it loaded before. Give its `state` to
 * `runFastPass` as `runs`; the nodes' indices must stay those given here (their health may
 * change). Passes decide exactly what they decide on the same runs as a list (property-tested).
 *
 * @example
 * const runs = createStandingRuns(cluster.nodes);
 * runs.add(run);
 * runFastPass({ ...input, runs: runs.state, queue });
 */
export function createStandingRuns(nodes: readonly ClusterNodeState[]): StandingRuns {
  const pool = createGpuPool(nodes);
  const book: StandingBook = {
    state: {
      pool,
      positionOf: createPositionLookup(pool),
      entries: [],
      heldByPosition: Array.from({ length: pool.free.length }, () => []),
      free: pool.capacity.slice(),
      overfilledCount: 0,
      usableFree: null,
      passFree: pool.capacity.slice(),
      allocatedGpus: new Map(),
      treeHeld: null,
      budgetSlots: createBudgetSlots(),
      preemptable: createPreemptableTracker(),
      nodesSeen: null,
      rankBySlotSeen: [],
      rankOfSeen: null,
      rankedCount: 0,
      isProtectionKept: false,
      nodeRuns: createNodeRuns(pool.free.length),
    },
    entryById: new Map(),
    gaps: 0,
  };
  const { state } = book;
  return {
    state,
    add: (run) => addRun(book, run),
    remove: (runId) => removeRun(book, runId),
    some(test) {
      return state.entries.some((entry) => entry.run !== null && test(entry.run));
    },
    holdsOn(nodeIndices) {
      return nodeIndices.some((node) => {
        const position = state.positionOf(node);
        const held = position < 0 ? [] : state.heldByPosition[position]!;
        return held.some((index) => state.entries[index]!.run !== null);
      });
    },
    protectionEndsBy(nowSec) {
      state.preemptable.totalsAt(nowSec, state.entries);
      return state.preemptable.protectionEnds;
    },
    protectionsEndedIn(afterSec, nowSec) {
      const budgetIds: string[] = [];
      for (const entry of state.entries) {
        const until = entry.protectedUntilSec;
        if (entry.run !== null && entry.isAllocated && afterSec < until && until <= nowSec) {
          budgetIds.push(entry.budgetId);
        }
      }
      return budgetIds;
    },
    preemptableBound(tree, nowSec, job, jobRank, rankOf, isGuarded = true) {
      const totals = state.preemptable.totalsAt(nowSec, state.entries);
      const { ids } = state.budgetSlots;
      const rankOfSlot = (slot: number): number => rankOf(ids[slot]!);
      if (!isGuarded) return preemptableGpus(totals, jobRank, rankOfSlot);
      const holdings = createHoldingsOn(tree, heldByTreeNode(state, tree).slice());
      return guardedPreemptableGpus(
        totals,
        { node: holdings.nodeIndexOf(job.budgetId), gpus: job.gpus, rank: jobRank },
        holdings,
        rankOfSlot,
        (slot) => holdings.nodeIndexOf(ids[slot]!),
      );
    },
    freeBounds(nodes) {
      const { usableFree, nodesSeen } = state;
      const isCounted =
        usableFree !== null &&
        state.overfilledCount === 0 &&
        nodesSeen?.frozen === nodes &&
        usableFree.isUsable === nodesSeen.isUsable;
      return isCounted ? usableFreeBounds(usableFree, state.pool.nodeSizeGpus) : null;
    },
    get size() {
      return book.entryById.size;
    },
  };
}

/** The state of standing runs with what adding and removing runs keep besides. */
type StandingBook = {
  state: StandingRunsState;
  /** Run id -> index of its entry. */
  entryById: Map<string, number>;
  /** Entries of removed runs still in `state.entries`. */
  gaps: number;
};

/** Adds a run as a new entry: its GPUs held, its node positions marked stale. */
function addRun(book: StandingBook, run: ActiveRun): void {
  const { state, entryById } = book;
  if (entryById.has(run.id)) throw new Error(`Run "${run.id}" is already standing.`);
  const slices = slicesOf(run, state.positionOf);
  const index = state.entries.length;
  const entry: LiveRun = {
    id: run.id,
    budgetId: run.budgetId,
    budgetSlot: state.budgetSlots.slotOf(run.budgetId),
    isAllocated: run.isAllocated,
    rank: 0,
    startSec: run.startSec,
    gpus: run.gpus,
    slices,
    protectedUntilSec: run.protectedUntilSec,
    isGone: false,
    isProtectedNow: false,
    run,
  };
  state.entries.push(entry);
  holdRun(state, entry, 1);
  state.preemptable.add(entry);
  entryById.set(run.id, index);
  for (const slice of slices) {
    state.heldByPosition[slice.position]!.push(index);
    markNodeRunsStale(state.nodeRuns, slice.position);
  }
}

/** Removes a run, leaving a gap; the gaps are dropped once they outnumber the runs. */
function removeRun(book: StandingBook, runId: string): void {
  const { state, entryById } = book;
  const index = entryById.get(runId);
  if (index === undefined) return;
  entryById.delete(runId);
  const entry = state.entries[index]!;
  entry.run = null;
  entry.isGone = true;
  holdRun(state, entry, -1);
  state.preemptable.remove(entry);
  for (const slice of entry.slices) markNodeRunsStale(state.nodeRuns, slice.position);
  book.gaps += 1;
  if (book.gaps > 64 && book.gaps > entryById.size) compactEntries(book);
}

/** Drops the gaps, keeping the order of the runs. */
function compactEntries(book: StandingBook): void {
  const { state, entryById } = book;
  const kept = state.entries.filter((entry) => entry.run !== null);
  state.entries = kept;
  for (const held of state.heldByPosition) held.length = 0;
  entryById.clear();
  kept.forEach((entry, index) => {
    entryById.set(entry.id, index);
    for (const slice of entry.slices) state.heldByPosition[slice.position]!.push(index);
  });
  book.gaps = 0;
  // Entries moved: the next pass ranks them all again.
  state.rankedCount = 0;
  markAllNodeRunsStale(state.nodeRuns);
}

/** A run takes (`sign` 1) or gives back (-1) its GPUs in the running totals. */
function holdRun(state: StandingRunsState, entry: LiveRun, sign: 1 | -1): void {
  const usable = state.usableFree;
  for (const slice of entry.slices) {
    const before = state.free[slice.position]!;
    const after = before - sign * slice.gpus;
    state.free[slice.position] = after;
    if (before >= 0 && after < 0) state.overfilledCount += 1;
    else if (before < 0 && after >= 0) state.overfilledCount -= 1;
    if (usable?.isUsable[slice.position]) {
      changeUsableFree(usable, state.pool, slice.position, before, after);
    }
  }
  if (entry.isAllocated) {
    const held = (state.allocatedGpus.get(entry.budgetId) ?? 0) + sign * entry.gpus;
    if (held === 0) state.allocatedGpus.delete(entry.budgetId);
    else state.allocatedGpus.set(entry.budgetId, held);
    const { treeHeld } = state;
    if (treeHeld) {
      const node = treeNodeOf(treeHeld, entry.budgetSlot, entry.budgetId);
      addAlongPath(treeHeld.tree, treeHeld.held, node, sign * entry.gpus);
    }
  }
}
