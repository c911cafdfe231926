import type { BudgetNode } from "../engine/types";
import type { ScenarioIssue } from "./scenario-issues";
import type { RawTreeNode } from "./scenario-schema";

/** Id of the tree's root in a simulation; every other node's id is its path, e.g. `llm/pretrain`. */
export const ROOT_ID = "/";

/**
 * Flattens a nested scenario tree into engine nodes whose ids are paths (`llm/pretrain`), the
 * root's {@link ROOT_ID}; weights default to 1. Adds duplicate sibling names and names with '/'
 * to `issues`.
 */
export function flattenTree(root: RawTreeNode, issues: ScenarioIssue[]): BudgetNode[] {
  const nodes: BudgetNode[] = [
    { id: ROOT_ID, parentId: null, name: root.name, weight: root.weight ?? 1 },
  ];
  function walk(node: RawTreeNode, id: string, jsonPath: string): void {
    const seen = new Set<string>();
    (node.children ?? []).forEach((child, i) => {
      const childPath = `${jsonPath}.children[${i}]`;
      if (child.name.includes("/")) {
        issues.push({ path: `${childPath}.name`, message: "must not contain '/'" });
      }
      if (seen.has(child.name)) {
        issues.push({
          path: `${childPath}.name`,
          message: `duplicate sibling name "${child.name}"`,
        });
      }
      seen.add(child.name);
      const childId = id === ROOT_ID ? child.name : `${id}/${child.name}`;
      nodes.push({ id: childId, parentId: id, name: child.name, weight: child.weight ?? 1 });
      walk(child, childId, childPath);
    });
  }
  walk(root, ROOT_ID, "tree");
  return nodes;
}
