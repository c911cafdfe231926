import type { BudgetNode } from "../engine/types";

/**
 * Effective share of every node of a flat budget tree (DESIGN section 2): the product of
 * fractions (weight / sum of sibling weights) from the root down; the root's is 1. A node whose
 * siblings all weigh 0 gets 0.
 *
 * @example computeEffectiveShares(tree).get("llm/pretrain") // 0.3
 */
export function computeEffectiveShares(tree: readonly BudgetNode[]): Map<string, number> {
  const children = new Map<string | null, BudgetNode[]>();
  for (const node of tree) {
    const list = children.get(node.parentId) ?? [];
    list.push(node);
    children.set(node.parentId, list);
  }
  const shares = new Map<string, number>();
  function walk(parentId: string, parentShare: number): void {
    const kids = children.get(parentId) ?? [];
    const total = kids.reduce((sum, kid) => sum + kid.weight, 0);
    for (const kid of kids) {
      const share = total > 0 ? parentShare * (kid.weight / total) : 0;
      shares.set(kid.id, share);
      walk(kid.id, share);
    }
  }
  for (const root of children.get(null) ?? []) {
    shares.set(root.id, 1);
    walk(root.id, 1);
  }
  return shares;
}

/** Ids of the leaves (nodes without children) of a flat tree, in tree order. */
export function listLeafIds(tree: readonly BudgetNode[]): string[] {
  const parents = new Set(tree.map((node) => node.parentId));
  return tree.filter((node) => !parents.has(node.id)).map((node) => node.id);
}
