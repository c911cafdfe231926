import { createRecord } from "./budget-tree";
import {
  rankingWithRows,
  type FairTreeRanking,
  type RankingOptions,
  levelFairShare,
} from "./fair-tree-ranking";
import { createRankScratch, walkLeaves, type RankScratch } from "./fair-tree-walk";
import { rollUpInPlace, rollUpUsage } from "./usage-window";
import type { BudgetTree } from "./types";

// Fair Tree (docs/ranking.md, ADR 002): ranking a budget tree once, or again and again (a
// ranker); the walk itself is in fair-tree-walk.ts, what a ranking holds in fair-tree-ranking.ts.

/**
 * Ranks every leaf of the tree with SLURM's Fair Tree algorithm (docs/ranking.md, ADR 002).
 *
 * Per inner node: S = weight / sum of sibling weights, U = usage / parent usage (0 when the
 * parent has no usage), LF = S / U. A depth-first walk visits siblings by descending LF and
 * gives leaves competition ranks (1, 1, 3). Ties: sibling leaves with equal LF share a rank;
 * a leaf tied with a sibling inner node shares the rank of that node's best leaf (leaves are
 * visited first); tied sibling inner nodes are walked as one group with their children merged.
 *
 * @param leafUsage allocated GPU-seconds per leaf id in the window (absent = 0)
 * @example
 * // root -> a (weight 1, usage 10), b (weight 1, usage 0): b has LF Infinity and ranks 1.
 * rankBudgets(tree, { a: 10 }, { capacityGpus: 8, windowSec: 604800 }).rankByBudgetId
 * // { b: 1, a: 2 }
 */
export function rankBudgets(
  tree: BudgetTree,
  leafUsage: Record<string, number>,
  options: RankingOptions,
): FairTreeRanking {
  return rankRolledUp(tree, rollUpUsage(tree, leafUsage), options, null, null).ranking;
}

/** Ranks the same tree again and again: see {@link createFairTreeRanker}. */
export type FairTreeRanker = (
  leafUsageByIndex: Float64Array,
  options: RankingOptions,
) => FairTreeRanking;

/**
 * A {@link rankBudgets} for one tree ranked again and again (the simulator ranks once per pass):
 * usage comes by tree node index instead of by id, and when the leaves' ranks and order are those
 * of the previous call, the new ranking shares that call's `rankByBudgetId` and
 * `leafIdsInRankOrder` instead of building them again. When every node's siblings are still in
 * the order and with the ties of the previous call, the tree is not walked again. Rankings are
 * read-only. Gives what `rankBudgets` gives on the same usage (property-tested).
 *
 * @param leafUsageByIndex allocated GPU-seconds per tree node index; only leaves' entries are read
 * @example
 * const rank = createFairTreeRanker(tree);
 * rank(Float64Array.of(0, 10, 0), { capacityGpus: 8, windowSec: 604800 }).rankByBudgetId
 */
export function createFairTreeRanker(tree: BudgetTree): FairTreeRanker {
  const usage = new Float64Array(tree.nodes.length);
  const scratch = createRankScratch(tree);
  let previous: RankedLeaves | null = null;
  return (leafUsageByIndex, options) => {
    for (let index = 0; index < usage.length; index += 1) usage[index] = leafUsageByIndex[index]!;
    previous = rankRolledUp(tree, rollUpInPlace(tree, usage), options, previous, scratch);
    return previous.ranking;
  };
}

/**
 * A ranking with its leaves' ranks by node index, its leaves in visiting order, and each inner
 * node's children in the order they were last sorted in (walked alone, not merged with tied
 * siblings): the next ranking sorts from there, mostly already in order.
 */
type RankedLeaves = {
  ranking: FairTreeRanking;
  ranks: number[];
  order: number[];
  childOrder: (number[] | undefined)[];
};

/**
 * The ranking on usage already rolled up (`rollUpUsage`), sharing `previous`'s leaf records
 * when the leaves' ranks and order are unchanged. With `scratch` (a ranker's), rows are built on
 * first read, `usage` may be reused by the caller (rows read a copy), and `previous`'s children
 * orders are sorted again in place.
 */
function rankRolledUp(
  tree: BudgetTree,
  usage: Float64Array,
  options: RankingOptions,
  previous: RankedLeaves | null,
  scratch: RankScratch | null,
): RankedLeaves {
  const { nodes } = tree;
  // Plain arrays: typed arrays this small cost more to make than to use. Only children's
  // entries of `lf` are written and read.
  const lf: number[] = scratch ? scratch.lf : new Array<number>(nodes.length).fill(0);
  for (let parentIndex = 0; parentIndex < nodes.length; parentIndex += 1) {
    const parentUsage = usage[parentIndex]!;
    for (const child of nodes[parentIndex]!.childIndices) {
      // U = usage / parent usage, 0 when the parent has none (SLURM's _ft_set_assoc_usage_efctv).
      const usageNorm = parentUsage === 0 ? 0 : usage[child]! / parentUsage;
      lf[child] = levelFairShare(nodes[child]!.fraction, usageNorm);
    }
  }
  const walked = walkLeaves(tree, lf, previous?.childOrder, scratch);
  const { leafOrder, isRepeated } = walked;

  let isUnchanged = isRepeated || (previous !== null && previous.order.length === leafOrder.length);
  for (let i = 0; !isRepeated && isUnchanged && i < leafOrder.length; i += 1) {
    const index = leafOrder[i]!;
    isUnchanged = previous!.order[i] === index && previous!.ranks[index] === walked.ranks[index];
  }
  // The ranks and order this ranking keeps: the previous ones when equal, else its own copies.
  const ranks = isUnchanged ? previous!.ranks : scratch ? walked.ranks.slice() : walked.ranks;
  const order = isUnchanged ? previous!.order : scratch ? leafOrder.slice() : leafOrder;
  let rankByBudgetId: Record<string, number>;
  let leafIdsInRankOrder: string[];
  if (isUnchanged) {
    ({ rankByBudgetId, leafIdsInRankOrder } = previous!.ranking);
  } else {
    rankByBudgetId = createRecord<number>();
    leafIdsInRankOrder = leafOrder.map((index) => nodes[index]!.id);
    for (const index of leafOrder) rankByBudgetId[nodes[index]!.id] = ranks[index]!;
  }
  const ranking = rankingWithRows(tree, usage, options, ranks, scratch !== null, {
    rankByBudgetId,
    leafIdsInRankOrder,
  });
  return { ranking, ranks, order, childOrder: walked.childOrder };
}

/** What {@link orderLikeFairTree} needs of a row. */
export type WalkedRow = {
  id: string;
  parentId: string | null;
  name: string;
  isLeaf: boolean;
  /** Infinity for an unused branch; -Infinity (last) when unknown, e.g. the root. */
  levelFairShare: number;
};

/**
 * Rows of a tree (any order) in the order Fair Tree walks it: depth first, siblings by
 * descending level fair-share, a leaf before an inner node on a tie, then by name. Listed this
 * way, leaf ranks read down the page and each branch sits where its comparison put it
 * (the cluster page's rank table, `allot queue`). Rows whose parent is missing count as roots.
 *
 * @example orderLikeFairTree(rows, (row) => row).map((row) => row.id) // ["root", "b", "b/x", "a"]
 */
export function orderLikeFairTree<Row>(rows: readonly Row[], view: (row: Row) => WalkedRow): Row[] {
  const views = new Map(rows.map((row) => [row, view(row)]));
  const ids = new Set([...views.values()].map((walked) => walked.id));
  const childrenOf = new Map<string | null, Row[]>();
  for (const [row, walked] of views) {
    const parentId = walked.parentId !== null && ids.has(walked.parentId) ? walked.parentId : null;
    const list = childrenOf.get(parentId);
    if (list) list.push(row);
    else childrenOf.set(parentId, [row]);
  }
  const out: Row[] = [];
  const visit = (parentId: string | null) => {
    const siblings = [...(childrenOf.get(parentId) ?? [])].sort((a, b) => {
      const x = views.get(a)!;
      const y = views.get(b)!;
      return (
        (y.levelFairShare > x.levelFairShare ? 1 : y.levelFairShare < x.levelFairShare ? -1 : 0) ||
        Number(y.isLeaf) - Number(x.isLeaf) ||
        x.name.localeCompare(y.name)
      );
    });
    for (const row of siblings) {
      out.push(row);
      visit(views.get(row)!.id);
    }
  };
  visit(null);
  return out;
}
