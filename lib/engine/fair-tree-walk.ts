import { sortSmall } from "./sort-small";
import type { BudgetTree } from "./types";

// The walk of Fair Tree (docs/ranking.md): the leaves' ranks and visiting order from the level
// fair shares, and what a ranker keeps to walk again cheaply.

/**
 * Arrays a ranker reuses from one ranking to the next (a ranking keeps copies of what its rows
 * read, and only when its leaves' ranks or order changed).
 */
export type RankScratch = {
  lf: number[];
  ranks: number[];
  leafOrder: number[];
  /** Per first sibling of tied inner siblings: those siblings, and their children as last sorted. */
  merged: Map<number, { members: number[]; order: number[] }>;
  /** Per node, as the last walk sorted its siblings: 1 if its LF equals the sibling's before it. */
  isTiedWithPrevious: Uint8Array;
  /** Whether the last walk walked tied inner siblings as one (or no walk was made yet). */
  hasMerged: boolean;
};

/**
 * Empty arrays for a ranker of `tree` (`RankScratch`).
 *
 * @example walkLeaves(tree, lf, undefined, createRankScratch(tree))
 */
export function createRankScratch(tree: BudgetTree): RankScratch {
  return {
    lf: new Array<number>(tree.nodes.length).fill(0),
    ranks: new Array<number>(tree.nodes.length).fill(0),
    leafOrder: [],
    merged: new Map(),
    isTiedWithPrevious: new Uint8Array(tree.nodes.length),
    hasMerged: true,
  };
}

/** What a walk of the tree gives: see {@link walkLeaves}. */
export type WalkedLeaves = {
  /** Leaf rank by node index (inner nodes keep 0): the scratch's array when there is one. */
  ranks: number[];
  /** Leaves in visiting order: the scratch's array when there is one. */
  leafOrder: number[];
  /** Children per inner node in the order they were sorted in, kept for the next ranking. */
  childOrder: (number[] | undefined)[];
  /** Whether the walk was not made again: the last ranks and order stand (`leafOrder` empty). */
  isRepeated: boolean;
};

/**
 * The leaves' ranks and visiting order by SLURM's Fair Tree walk on level fair shares `lf`
 * (docs/ranking.md): siblings sorted by LF (leaves first on ties, then name, then id), tied
 * inner siblings walked as one, ties carried down. With a ranker's `scratch`, the walk is not
 * made again when it would do what the last one did (`isRepeatWalk`). `lastChildOrder`: the
 * children of each inner node as the last ranking sorted them, which this walk sorts again.
 *
 * @example walkLeaves(tree, lf, undefined, null).leafOrder // leaf indices, rank order
 */
export function walkLeaves(
  tree: BudgetTree,
  lf: readonly number[],
  lastChildOrder: (number[] | undefined)[] | undefined,
  scratch: RankScratch | null,
): WalkedLeaves {
  const { nodes } = tree;
  const isLazy = scratch !== null;
  // Every leaf's rank is written below; inner nodes keep 0.
  const ranks: number[] = scratch ? scratch.ranks : new Array<number>(nodes.length).fill(0);
  const leafOrder: number[] = scratch ? scratch.leafOrder : [];
  leafOrder.length = 0;
  let rank = 0;
  let nextRankNoTies = 1;
  const compareSiblings = siblingOrder(tree, lf);

  // Children sorted per inner node, kept for the next ranking. The order is total (ids are
  // unique), so the sort gives the same result from any starting order. (Only the last order is
  // read here: a closure holding the last ranking would keep every ranking before it alive.)
  const childOrder: (number[] | undefined)[] = isLazy && lastChildOrder ? lastChildOrder : [];
  const childrenOf = (index: number): number[] => {
    const last = lastChildOrder?.[index];
    const children = last ? (isLazy ? last : last.slice()) : [...nodes[index]!.childIndices];
    childOrder[index] = children;
    return children;
  };
  // Mirrors SLURM's _calc_tree_fs: `isGroupTied` carries a tie with the previous sibling
  // into the first child visited below an inner node.
  const walk = (siblings: number[], isGroupTied: boolean): void => {
    sortSmall(siblings, compareSiblings);
    for (let i = 0; i < siblings.length; i += 1) {
      const index = siblings[i]!;
      const isTiedWithPrevious = i > 0 && lf[siblings[i - 1]!] === lf[index];
      if (scratch) scratch.isTiedWithPrevious[index] = isTiedWithPrevious ? 1 : 0;
      const isTied = i === 0 ? isGroupTied : isTiedWithPrevious;
      const node = nodes[index]!;
      if (node.isLeaf) {
        if (!isTied) rank = nextRankNoTies;
        ranks[index] = rank;
        leafOrder.push(index);
        nextRankNoTies += 1;
        continue;
      }
      const isMerged =
        i + 1 < siblings.length &&
        !nodes[siblings[i + 1]!]!.isLeaf &&
        lf[siblings[i + 1]!] === lf[index];
      if (!isMerged) {
        walk(childrenOf(index), isTied);
        continue;
      }
      if (scratch) scratch.hasMerged = true;
      const from = i;
      while (i + 1 < siblings.length) {
        const next = siblings[i + 1]!;
        if (nodes[next]!.isLeaf || lf[next] !== lf[index]) break;
        i += 1;
      }
      walk(mergedChildren(tree, scratch, siblings, from, i), isTied);
    }
  };
  const isRepeated = isRepeatWalk(tree, lf, lastChildOrder, scratch);
  if (!isRepeated) {
    if (scratch) scratch.hasMerged = false;
    walk(childrenOf(0), false);
    if (nodes[0]!.isLeaf) {
      // A tree of one node: the root is the only budget.
      ranks[0] = 1;
      leafOrder.push(0);
    }
  }
  return { ranks, leafOrder, childOrder, isRepeated };
}

/** The order of siblings in the walk: LF descending, then leaves first, then name, then id. */
function siblingOrder(tree: BudgetTree, lf: readonly number[]): (a: number, b: number) => number {
  const { nodes } = tree;
  return (a, b) => {
    const lfA = lf[a]!;
    const lfB = lf[b]!;
    if (lfA !== lfB) return lfA > lfB ? -1 : 1;
    const nodeA = nodes[a]!;
    const nodeB = nodes[b]!;
    if (nodeA.isLeaf !== nodeB.isLeaf) return nodeA.isLeaf ? -1 : 1;
    // SLURM leaves equal siblings in qsort's order; a fixed order keeps the walk deterministic.
    if (nodeA.name !== nodeB.name) return nodeA.name < nodeB.name ? -1 : 1;
    return nodeA.id < nodeB.id ? -1 : nodeA.id > nodeB.id ? 1 : 0;
  };
}

/**
 * The children of tied inner siblings `from`..`to`, walked as one: with a ranker's scratch, in
 * the order they were last sorted in when the same siblings tied (the sort's result does not
 * depend on it), else in tree order.
 */
function mergedChildren(
  tree: BudgetTree,
  scratch: RankScratch | null,
  siblings: readonly number[],
  from: number,
  to: number,
): number[] {
  const kept = scratch?.merged.get(siblings[from]!);
  const isSame =
    kept !== undefined &&
    kept.members.length === to - from + 1 &&
    kept.members.every((member, k) => member === siblings[from + k]);
  if (isSame) return kept.order;
  const order: number[] = [];
  for (let k = from; k <= to; k += 1) order.push(...tree.nodes[siblings[k]!]!.childIndices);
  scratch?.merged.set(siblings[from]!, { members: siblings.slice(from, to + 1), order });
  return order;
}

/**
 * Whether the walk would do again what the last one did: no tied inner siblings were walked as
 * one, and every inner node's children, in the order last sorted, are still in order with the
 * same ties. The walk's every step depends only on those, so the leaves' ranks and order are
 * the last ones.
 */
function isRepeatWalk(
  tree: BudgetTree,
  lf: readonly number[],
  lastChildOrder: readonly (number[] | undefined)[] | undefined,
  scratch: RankScratch | null,
): boolean {
  if (scratch === null || scratch.hasMerged || !lastChildOrder) return false;
  for (let parentIndex = 0; parentIndex < tree.nodes.length; parentIndex += 1) {
    const children = lastChildOrder[parentIndex];
    if (children === undefined) continue;
    for (let i = 1; i < children.length; i += 1) {
      const child = children[i]!;
      const lfBefore = lf[children[i - 1]!]!;
      const lfChild = lf[child]!;
      // In order by LF, tied as before; siblings tied before are in the order of their names.
      if (lfBefore < lfChild) return false;
      if ((lfBefore === lfChild) !== (scratch.isTiedWithPrevious[child] === 1)) return false;
    }
  }
  return true;
}
