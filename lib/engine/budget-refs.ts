import type { FairTreeRanking } from "./fair-tree-ranking";
import { rowOf } from "./fair-tree-ranking";
import type { BudgetRef, Parting, PartingSide } from "./reasons";
import type { BudgetTree } from "./types";

// Budgets as decisions name them, from one ranking: their refs, and where two paths part.

/**
 * Where two budgets' paths part (docs/ranking.md): the two children of their lowest common
 * ancestor, on each one's side, with their usage ratios. Fair Tree orders those two siblings,
 * so that comparison decides which budget ranks higher, whatever the leaves' own ratios.
 * Null when a budget is not in the tree or both are the same.
 *
 * @example findParting(tree, ranking, "vision/perception/dana", "language/lm-posttrain/riley")
 * // { higher: { path: "vision", usageRatio: 0.92 }, lower: { path: "language", usageRatio: 1.3 } }
 */
export function findParting(
  tree: BudgetTree,
  ranking: FairTreeRanking,
  higherId: string,
  lowerId: string,
): Parting | null {
  const higher = tree.indexById[higherId];
  const lower = tree.indexById[lowerId];
  if (higher === undefined || lower === undefined || higher === lower) return null;
  const ancestorsOfLower = new Set<number>();
  for (let at = lower; at !== -1; at = tree.nodes[at]!.parentIndex) ancestorsOfLower.add(at);
  let higherSide = higher;
  while (!ancestorsOfLower.has(tree.nodes[higherSide]!.parentIndex)) {
    higherSide = tree.nodes[higherSide]!.parentIndex;
    if (higherSide === -1) return null;
  }
  const common = tree.nodes[higherSide]!.parentIndex;
  let lowerSide = lower;
  while (tree.nodes[lowerSide]!.parentIndex !== common)
    lowerSide = tree.nodes[lowerSide]!.parentIndex;
  const side = (index: number): PartingSide => ({
    path: tree.nodes[index]!.path,
    usageRatio: rowOf(ranking, index)?.usageRatio ?? null,
  });
  return { higher: side(higherSide), lower: side(lowerSide) };
}

/**
 * {@link findParting} memoised for one ranking: a pass asks it for many waiting jobs of the
 * same few pairs of budgets.
 *
 * @example createPartingLookup(tree, ranking)("vision/dana", "language/riley")?.higher.path // "vision"
 */
export function createPartingLookup(
  tree: BudgetTree,
  ranking: FairTreeRanking,
): (higherId: string, lowerId: string) => Parting | null {
  const partings = new Map<string, Parting | null>();
  return (higherId, lowerId) => {
    const key = `${higherId}\u0000${lowerId}`;
    let parting = partings.get(key);
    if (parting === undefined) {
      parting = findParting(tree, ranking, higherId, lowerId);
      partings.set(key, parting);
    }
    return parting;
  };
}

/**
 * A memoised lookup from budget id to the `BudgetRef` decisions carry (path, rank, usage
 * ratio from this ranking). Budgets missing from the tree get their id as path and null rank.
 *
 * @example createBudgetRefs(tree, ranking)("llm/pretrain").rank // 2
 */
export function createBudgetRefs(
  tree: BudgetTree,
  ranking: FairTreeRanking,
): (budgetId: string) => BudgetRef {
  const refs = new Map<string, BudgetRef>();
  return (budgetId) => {
    let ref = refs.get(budgetId);
    if (!ref) {
      const index = tree.indexById[budgetId];
      // One row, not all: a pass names a few budgets.
      const row = index === undefined ? undefined : rowOf(ranking, index);
      ref = {
        id: budgetId,
        path: row ? row.path || row.name : budgetId,
        rank: row?.rank ?? null,
        usageRatio: row?.usageRatio ?? null,
      };
      refs.set(budgetId, ref);
    }
    return ref;
  };
}
