// Which jobs a person sees in the jobs list: their own; a lead also those charged anywhere below
// the nodes they lead; an admin everyone's. Pure, over the engine's tree (unit-tested).
import { findBudgetByPath, type BudgetTree } from "../engine";

/** Ids of `nodeId` and every node below it (empty when it is not in the tree). */
export function subtreeIds(tree: BudgetTree, nodeId: string): string[] {
  const start = tree.indexById[nodeId];
  if (start === undefined) return [];
  const ids: string[] = [];
  const stack = [start];
  while (stack.length > 0) {
    const node = tree.nodes[stack.pop()!]!;
    ids.push(node.id);
    stack.push(...node.childIndices);
  }
  return ids;
}

export type JobScope =
  | { kind: "all" }
  | { kind: "own"; userId: string }
  | { kind: "branch"; userId: string; budgetIds: string[] };

/**
 * The caller's scope: admins see all; leads their own jobs and those charged below the nodes
 * they lead; everyone else their own.
 *
 * @example jobScope(tree, { id: "u1", isAdmin: false }, ["language"]).kind // "branch"
 */
export function jobScope(
  tree: BudgetTree,
  user: { id: string; isAdmin: boolean },
  leadNodeIds: readonly string[],
): JobScope {
  if (user.isAdmin) return { kind: "all" };
  const budgetIds = [...new Set(leadNodeIds.flatMap((id) => subtreeIds(tree, id)))];
  return budgetIds.length > 0
    ? { kind: "branch", userId: user.id, budgetIds }
    : { kind: "own", userId: user.id };
}

/** The budget ids a budget filter by path stands for (the node and below), or null if unknown. */
export function budgetFilterIds(tree: BudgetTree, path: string): string[] | null {
  const node = findBudgetByPath(tree, path.replace(/^\/+|\/+$/g, ""));
  return node ? subtreeIds(tree, node.id) : null;
}
