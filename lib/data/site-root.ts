// A site outside demo mode starts with an empty budget tree; its first admin needs a root to
// split. The root is made once, under the tree lock, so two admins signing in at the same moment
// make one root; the database allows one root only (budget_nodes_single_root), removed or not.
// docs/decisions/093-first-admins.md.
import type { Db } from "./db/client";
import { lockTreeForEdit } from "./tree-lock";

/** The root a site starts with: the demo seed's root has the same name, so a later seed finds it. */
export const ROOT_BUDGET_NAME = "lab";

/**
 * Creates the budget tree's root (`ROOT_BUDGET_NAME`, weight 1, its weight in force from now)
 * when the tree has none. Returns true when it made one, false when one was there.
 */
export async function ensureRootBudget(db: Db): Promise<boolean> {
  return db.$transaction(async (tx) => {
    await lockTreeForEdit(tx);
    const root = await tx.budgetNode.findFirst({
      where: { parentId: null },
      select: { id: true },
    });
    if (root) return false;
    const created = await tx.budgetNode.create({
      data: { parentId: null, name: ROOT_BUDGET_NAME, weight: 1 },
      select: { id: true },
    });
    await tx.weightChange.create({
      data: { nodeId: created.id, weightBefore: null, weightAfter: 1 },
    });
    return true;
  });
}
