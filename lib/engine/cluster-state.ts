import { createBudgetSlots, type BudgetSlots } from "./budget-slots";
import type { PreemptableTotals } from "./preemptable-totals";
import { isProtected, preemptionOutcome } from "./contract";
import {
  createGpuPool,
  createPositionLookup,
  slicesOf,
  type FreeGpuBounds,
  type GpuPool,
} from "./placement";
import { compareVictims, type VictimSlot } from "./preemption";
import type { BudgetRef, DrainCompleteDecision, PreemptDecision, PreemptReason } from "./reasons";
import type { LiveRun, NodesSeen } from "./live-run";
import type { SchedulePassInput } from "./pass-types";
import { heldByTreeNode, standingRunsState, treeNodeBySlot } from "./standing-runs";
import { beginNodeRunsPass, markAllNodeRunsStale, touchNodeRuns, type NodeRuns } from "./node-runs";
import { createHoldings, createHoldingsOn, type Holdings } from "./holdings";
import { countUsableFree, usableFreeBounds } from "./usable-free";
import type { ActiveRun, BudgetTree, ClusterNodeState, NodeHealth } from "./types";

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

/** No entries: what most passes find on down and draining nodes, made once. */
const NONE_HELD: readonly number[] = Object.freeze([]);

/**
 * Loads nodes and runs for a pass (internal): runs touching a down node end at once, protected
 * or not; unprotected runs touching a draining node are preempted; draining nodes left empty are
 * reported. Throws on broken invariants: a run on an unknown node, a node over capacity.
 *
 * @example loadClusterState(input, rankOf, budgetRef).preemptions // node-down and drain ones
 */
export function loadClusterState(
  input: SchedulePassInput,
  rankOf: (budgetId: string) => number,
  budgetRef: (budgetId: string) => BudgetRef,
): ClusterState {
  const { cluster, nowSec } = input;
  const standing = standingRunsState(input.runs);
  // Health and position per node index, in flat arrays: the loop below runs for every run of
  // every pass. Standing runs keep them while the nodes stay as they were.
  const seen = standing?.nodesSeen;
  let pool: GpuPool;
  let healthAt: NodeHealth[];
  // Positions of down and of draining nodes, ascending.
  let downAt: number[];
  let drainingAt: number[];
  if (standing && seen && isSameNodes(seen, cluster.nodes)) {
    // The pass's free GPUs in the array kept for them: no pass runs inside another.
    standing.passFree.set(standing.pool.capacity);
    pool = { ...standing.pool, free: standing.passFree, isUsable: seen.isUsable };
    ({ healthAt, downAt, drainingAt } = seen);
  } else {
    pool = standing
      ? copyPool(standing.pool, standing.positionOf, cluster.nodes)
      : createGpuPool(cluster.nodes);
    const lookup = standing?.positionOf ?? createPositionLookup(pool);
    healthAt = [];
    for (const node of cluster.nodes) healthAt[lookup(node.index)] = node.health;
    downAt = positionsWith(healthAt, "down");
    drainingAt = positionsWith(healthAt, "draining");
    if (standing) {
      standing.nodesSeen = seeNodes(cluster.nodes, pool.isUsable, healthAt, downAt, drainingAt);
      standing.usableFree = countUsableFree(standing.pool, standing.free, pool.isUsable);
    }
  }
  const positionOf = standing?.positionOf ?? createPositionLookup(pool);
  const healthOf = (node: number): NodeHealth | undefined => healthAt[positionOf(node)];
  const hasDown = downAt.length > 0;
  // Standing runs that fit their nodes: their running totals are the pool's, and only the runs
  // on down or draining nodes need a look.
  const isTotalled = standing !== null && standing.overfilledCount === 0;
  if (isTotalled) pool.free.set(standing!.free);
  const preemptions: PreemptDecision[] = [];
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

  // Entries holding GPUs on nodes of this health, ascending: the order of `live`.
  const heldOn = (health: "down" | "draining"): readonly number[] => {
    const positions = health === "down" ? downAt : drainingAt;
    if (positions.length === 0) return NONE_HELD;
    const indices: number[] = [];
    for (const position of positions) indices.push(...heldByPosition[position]!);
    return [...new Set(indices)].sort((a, b) => a - b);
  };
  // Allocated runs ended while loading, taken off the standing totals of holdings.
  const endedAllocated: LiveRun[] = [];
  // Standing entries ended in this pass, to stand again once it is done.
  const ended: LiveRun[] = [];
  const endRun = (entry: LiveRun, reason: PreemptReason): void => {
    if (entry.isAllocated) endedAllocated.push(entry);
    entry.isGone = true;
    ended.push(entry);
    for (const slice of entry.slices) {
      pool.free[slice.position] = pool.free[slice.position]! + slice.gpus;
      if (nodeRuns) touchNodeRuns(nodeRuns, slice.position);
    }
    const run = entry.run!;
    preemptions.push({
      runId: run.id,
      jobId: run.jobId,
      budgetId: run.budgetId,
      gpus: run.gpus,
      outcome: reason.outcome,
      reason,
    });
  };
  // A run on a down node ends at once. True when it ended.
  const endIfDown = (entry: LiveRun, run: ActiveRun): boolean => {
    const downNode = hasDown
      ? run.placement.find((slice) => healthOf(slice.node) === "down")
      : undefined;
    if (downNode) {
      entry.isGone = true;
      ended.push(entry);
      if (nodeRuns) for (const slice of entry.slices) touchNodeRuns(nodeRuns, slice.position);
      if (entry.isAllocated) endedAllocated.push(entry);
      preemptions.push({
        runId: run.id,
        jobId: run.jobId,
        budgetId: run.budgetId,
        gpus: run.gpus,
        outcome: preemptionOutcome(run.isResumable),
        reason: {
          rule: "preempt-node-down",
          atSec: nowSec,
          victim: budgetRef(run.budgetId),
          victimStartSec: run.startSec,
          node: downNode.node,
          outcome: preemptionOutcome(run.isResumable),
        },
      });
      return true;
    }
    return false;
  };
  // A run on a down node ends at once; any other takes its GPUs. False when it ended.
  const load = (entry: LiveRun, run: ActiveRun): boolean => {
    if (endIfDown(entry, run)) return false;
    for (const slice of entry.slices) {
      pool.free[slice.position] = pool.free[slice.position]! - slice.gpus;
      if (pool.free[slice.position]! < 0) {
        throw new RangeError(`Node ${pool.indexOf[slice.position]} holds more GPUs than it has.`);
      }
    }
    return true;
  };

  if (standing && preemptable && standing.isProtectionKept) {
    // Entries stay with their per-pass fields: gone as removed (`finish` undoes this pass's
    // ends), protected as the totals just left them, ranked as when last ranked. Only entries
    // whose budget may rank otherwise get their rank again.
    const isSame =
      standing.rankBySlotSeen === rankBySlot || isSameRanks(standing.rankBySlotSeen, rankBySlot);
    const from = isSame ? standing.rankedCount : 0;
    // Entries ranked anew may rank otherwise: every position is summed up again. (Those ranked
    // for the first time came since the last pass, and their positions are stale already.)
    if (from === 0) markAllNodeRunsStale(standing.nodeRuns);
    for (let index = from; index < live.length; index += 1) {
      const entry = live[index]!;
      if (entry.run !== null) entry.rank = rankBySlot[entry.budgetSlot]!;
    }
  } else if (standing) {
    // Entries stay; their per-pass fields are set anew. Gaps of removed runs count as gone.
    // Until every entry is set, no later pass may keep them (a node overfilled throws below).
    standing.isProtectionKept = false;
    markAllNodeRunsStale(standing.nodeRuns);
    for (const entry of live) {
      const run = entry.run;
      entry.isGone = run === null;
      if (run === null) continue;
      entry.rank = rankBySlot[entry.budgetSlot]!;
      entry.isProtectedNow = entry.isAllocated && nowSec < entry.protectedUntilSec;
      if (!isTotalled) load(entry, run);
    }
    // Protection as the totals left it, when they were asked; else as the next totals set it.
    standing.isProtectionKept = preemptable !== null;
  }
  if (standing) {
    // Kept as it is: nothing writes it from here on (standing runs bring no slots while loading).
    standing.rankBySlotSeen = rankBySlot;
    standing.rankOfSeen = rankOf;
    standing.rankedCount = live.length;
    // Totals counted every run's GPUs: those of runs ending on a down node come back.
    for (const index of isTotalled ? heldOn("down") : NONE_HELD) {
      const entry = live[index]!;
      if (entry.run === null || !endIfDown(entry, entry.run)) continue;
      for (const slice of entry.slices) {
        pool.free[slice.position] = pool.free[slice.position]! + slice.gpus;
      }
    }
  } else {
    for (const run of input.runs as readonly ActiveRun[]) {
      const slices = slicesOf(run, positionOf);
      const entry: LiveRun = {
        id: run.id,
        budgetId: run.budgetId,
        budgetSlot: budgetSlots.slotOf(run.budgetId),
        isAllocated: run.isAllocated,
        rank: rankOf(run.budgetId),
        startSec: run.startSec,
        gpus: run.gpus,
        slices,
        protectedUntilSec: run.protectedUntilSec,
        isGone: false,
        isProtectedNow: isProtected(run, nowSec),
        run,
      };
      if (!load(entry, run)) continue;
      const index = live.length;
      live.push(entry);
      for (const slice of slices) heldByPosition[slice.position]!.push(index);
    }
  }
  if (!standing) {
    for (let slot = rankBySlot.length; slot < budgetSlots.ids.length; slot += 1) {
      rankBySlot.push(rankOf(budgetSlots.ids[slot]!));
    }
  }
  for (const index of heldOn("draining")) {
    const entry = live[index]!;
    if (entry.isGone || entry.isProtectedNow) continue;
    const draining = entry.run!.placement.find((slice) => healthOf(slice.node) === "draining");
    if (!draining) continue;
    endRun(entry, {
      rule: "preempt-drain",
      atSec: nowSec,
      victim: budgetRef(entry.run!.budgetId),
      victimStartSec: entry.startSec,
      protectedUntilSec: entry.protectedUntilSec,
      node: draining.node,
      outcome: preemptionOutcome(entry.run!.isResumable),
    });
  }
  const drainsCompleted: DrainCompleteDecision[] = [];
  for (const position of drainingAt) {
    const node = pool.indexOf[position]!;
    if (heldByPosition[position]!.every((index) => live[index]!.isGone)) {
      drainsCompleted.push({ node, reason: { rule: "drain-complete", atSec: nowSec, node } });
    }
  }
  // The free GPUs of usable positions as the standing runs counted them, unless a run ended
  // here held some there.
  const usableFree = isTotalled ? standing!.usableFree : null;
  const freeBounds =
    usableFree?.isUsable === pool.isUsable &&
    !ended.some((entry) => entry.slices.some((slice) => pool.isUsable[slice.position] === 1))
      ? usableFreeBounds(usableFree, pool.nodeSizeGpus)
      : null;
  const loadHoldings = (tree: BudgetTree): Holdings => {
    if (isTotalled) {
      // The standing runs' holdings on the tree, kept from pass to pass, copied.
      const holdings = createHoldingsOn(tree, heldByTreeNode(standing!, tree).slice());
      for (const entry of endedAllocated) holdings.add(entry.budgetId, -entry.gpus);
      return holdings;
    }
    const holdings = createHoldings(tree, []);
    for (const entry of live) {
      if (!entry.isGone && entry.isAllocated) holdings.add(entry.budgetId, entry.gpus);
    }
    return holdings;
  };
  const loadedCount = live.length;
  // Victim lists: loaded runs (never this pass's starts), unprotected, on healthy nodes, in
  // preference order (unallocated, worst rank, latest). Protection is fixed for the pass.
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
  const victimsByPosition = (positions?: readonly number[]): VictimSlot[][] => {
    if (positions) for (const position of positions) victims[position] ??= victimsOn(position);
    else
      for (let position = 0; position < heldByPosition.length; position += 1) {
        victims[position] ??= victimsOn(position);
      }
    return victims;
  };

  // Standing runs get back to what they were: the pass's starts come off their lists.
  const finish = (): void => {
    if (!standing) return;
    for (const entry of ended) entry.isGone = false;
    for (let index = live.length - 1; index >= loadedCount; index -= 1) {
      for (const slice of live[index]!.slices) heldByPosition[slice.position]!.pop();
    }
    live.length = loadedCount;
  };

  return {
    pool,
    live,
    heldByPosition,
    loadedCount,
    budgetSlots,
    rankBySlot,
    preemptable,
    freeBounds,
    loadHoldings,
    nodeBySlotOn: (tree) => (standing ? treeNodeBySlot(standing, tree) : []),
    preemptions,
    drainsCompleted,
    victimsByPosition,
    endRun,
    nodeRuns,
    finish,
  };
}

function seeNodes(
  nodes: readonly ClusterNodeState[],
  isUsable: Uint8Array,
  healthAt: NodeHealth[],
  downAt: number[],
  drainingAt: number[],
): NodesSeen {
  const isFrozen = Object.isFrozen(nodes) && nodes.every((node) => Object.isFrozen(node));
  return {
    frozen: isFrozen ? nodes : null,
    nodes: [...nodes],
    fields: nodes.map(({ index, gpus, health }) => ({ index, gpus, health })),
    isUsable,
    healthAt,
    downAt,
    drainingAt,
  };
}

/** The positions whose node has `health`, ascending. */
function positionsWith(healthAt: readonly NodeHealth[], health: NodeHealth): number[] {
  const positions: number[] = [];
  for (let position = 0; position < healthAt.length; position += 1) {
    if (healthAt[position] === health) positions.push(position);
  }
  return positions;
}

/**
 * Whether `nodes` are the very objects seen, none changed since: at once when they are the very
 * frozen array seen (as the simulator gives them, a new array whenever a node changes), else one
 * node at a time.
 */
function isSameNodes(seen: NodesSeen, nodes: readonly ClusterNodeState[]): boolean {
  if (nodes === seen.frozen) return true;
  if (seen.nodes.length !== nodes.length) return false;
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i]!;
    const fields = seen.fields[i]!;
    if (
      node !== seen.nodes[i] ||
      node.health !== fields.health ||
      node.gpus !== fields.gpus ||
      node.index !== fields.index
    ) {
      return false;
    }
  }
  return true;
}

/** Whether two ranks per budget slot agree on every slot of the shorter (slots only grow). */
function isSameRanks(seen: readonly number[], ranks: readonly number[]): boolean {
  if (seen.length > ranks.length) return false;
  for (let slot = 0; slot < seen.length; slot += 1) if (seen[slot] !== ranks[slot]) return false;
  return true;
}

/**
 * A fresh pool for `nodes` from the template standing runs keep: node order, positions and sizes
 * are shared, free GPUs and health are the pass's own. Throws when the nodes are not the
 * template's.
 */
function copyPool(
  template: GpuPool,
  positionOf: (node: number) => number,
  nodes: readonly ClusterNodeState[],
): GpuPool {
  const count = template.indexOf.length;
  const isUsable = new Uint8Array(count);
  const isSeen = new Uint8Array(count);
  let isSame = nodes.length === count;
  for (let i = 0; i < nodes.length && isSame; i += 1) {
    const node = nodes[i]!;
    const position = positionOf(node.index);
    isSame = position >= 0 && !isSeen[position] && template.capacity[position] === node.gpus;
    if (!isSame) break;
    isSeen[position] = 1;
    isUsable[position] = node.health === "healthy" ? 1 : 0;
  }
  if (!isSame) {
    throw new RangeError("The cluster's nodes are not those its standing runs were made for.");
  }
  return { ...template, free: template.capacity.slice(), isUsable };
}
