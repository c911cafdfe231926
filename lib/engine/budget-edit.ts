import { validateBudgetTree } from "./budget-tree";
import type { BudgetNode, BudgetTree, Issue, Result } from "./types";

/** One child in an edit of a node's children: with an id it exists, without it is new. */
export type ChildEdit = { id?: string; name: string; weight: number };

/** The tree after an edit, and what the edit does to the existing nodes. */
export type ChildrenEditResult = {
  tree: BudgetTree;
  /** Existing children left out of the edit, and every node below them. */
  removedIds: string[];
  /** Ids given to the new children in `tree`, in the order of the edit. */
  addedIds: string[];
};

export type ChildrenEditOptions = {
  /** Prefix of the ids given to new children: `${newIdPrefix}0`, ... (default "new:"). */
  newIdPrefix?: string;
  /**
   * Ids of `parentId`'s removed children (not in `nodes`): an edit that names one is told the
   * child is gone "any more"; any other id was never a child and is told so.
   */
  formerChildIds?: ReadonlySet<string>;
};

/**
 * Applies an edit of `parentId`'s children to a flat tree and validates the result
 * (docs/concepts.md): children with an id get the new name and weight, children without
 * one are added (with ids `${newIdPrefix}0`, `${newIdPrefix}1`, ...), and existing
 * children left out are removed with their whole subtree. Used by the editor's live
 * preview and by the server before it writes, so both compute the same shares.
 *
 * @example
 * const result = applyChildrenEdit(nodes, "lang", [{ id: "a", name: "a", weight: 3 }, { name: "c", weight: 1 }]);
 * // result.ok && result.value.tree: "a" has fraction 0.75, new "c" 0.25; "b" and its subtree are removed
 */
export function applyChildrenEdit(
  nodes: readonly BudgetNode[],
  parentId: string,
  children: readonly ChildEdit[],
  options: ChildrenEditOptions = {},
): Result<ChildrenEditResult> {
  const { newIdPrefix = "new:", formerChildIds = new Set<string>() } = options;
  const issues: Issue[] = [];
  const byId = new Map(nodes.map((node) => [node.id, node]));
  if (!byId.has(parentId)) {
    return {
      ok: false,
      issues: [
        { code: "unknown-parent", message: `No budget has id "${parentId}".`, id: parentId },
      ],
    };
  }
  const edits = new Map<string, ChildEdit>();
  children.forEach((child, index) => {
    if (child.id === undefined) return;
    const existing = byId.get(child.id);
    if (!existing || existing.parentId !== parentId) {
      issues.push({
        code: "unknown-child",
        message: formerChildIds.has(child.id)
          ? `Child ${index + 1} ("${child.name}") is not a child of this budget any more: it was removed.`
          : `Child ${index + 1} ("${child.name}") is not a child of this budget.`,
        id: child.id,
      });
    }
    edits.set(child.id, child);
  });
  if (issues.length > 0) return { ok: false, issues };

  const removed = new Set<string>();
  for (const node of nodes) {
    if (node.parentId === parentId && !edits.has(node.id)) removed.add(node.id);
  }
  // Nodes are not ordered parent-first in general: close the removed set over descendants.
  const childrenOf = new Map<string, string[]>();
  for (const node of nodes) {
    if (node.parentId === null) continue;
    const list = childrenOf.get(node.parentId);
    if (list) list.push(node.id);
    else childrenOf.set(node.parentId, [node.id]);
  }
  const stack = [...removed];
  while (stack.length > 0) {
    for (const childId of childrenOf.get(stack.pop()!) ?? []) {
      if (!removed.has(childId)) {
        removed.add(childId);
        stack.push(childId);
      }
    }
  }

  const next: BudgetNode[] = [];
  for (const node of nodes) {
    if (removed.has(node.id)) continue;
    const edit = edits.get(node.id);
    next.push(edit ? { ...node, name: edit.name, weight: edit.weight } : node);
  }
  const addedIds: string[] = [];
  children.forEach((child) => {
    if (child.id !== undefined) return;
    const id = `${newIdPrefix}${addedIds.length}`;
    addedIds.push(id);
    next.push({ id, parentId, name: child.name, weight: child.weight });
  });
  const tree = validateBudgetTree(next);
  if (!tree.ok) return tree;
  return { ok: true, value: { tree: tree.value, removedIds: [...removed], addedIds } };
}
