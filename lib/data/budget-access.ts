// Who may edit which part of the budget tree (docs/concepts.md), read from the database
// inside the caller's transaction so the check and the write see the same tree.
import "server-only";
import { getDb } from "./db/app-db";
import type { Db } from "./db/client";
import type { SessionUser } from "./users";
import { AppError } from "../errors";

type Tx = Pick<Db, "budgetNode" | "budgetLead">;

export type TreeAccess = {
  parentOf: Map<string, string | null>;
  leadNodeIds: Set<string>;
};

export type LiveNode = { id: string; parentId: string | null; name: string; version: number };

/**
 * True when `user` may change the children of `nodeId`: an admin, or a lead of the
 * node or of any of its ancestors. `parentOf` maps node id to parent id.
 *
 * @example canEditBelow(pi, "lm-pretrain", parents, leadNodeIds) // true for its PI
 */
export function canEditBelow(
  user: Pick<SessionUser, "isAdmin">,
  nodeId: string,
  parentOf: ReadonlyMap<string, string | null>,
  leadNodeIds: ReadonlySet<string>,
): boolean {
  if (user.isAdmin) return true;
  const seen = new Set<string>();
  for (let id: string | null | undefined = nodeId; id; id = parentOf.get(id)) {
    if (seen.has(id)) return false;
    seen.add(id);
    if (leadNodeIds.has(id)) return true;
  }
  return false;
}

/** The live tree's parent links and the nodes `user` leads. */
export async function loadTreeAccess(tx: Tx, user: SessionUser): Promise<TreeAccess> {
  const [nodes, leads] = await Promise.all([
    tx.budgetNode.findMany({ where: { removedAt: null }, select: { id: true, parentId: true } }),
    tx.budgetLead.findMany({ where: { userId: user.id }, select: { nodeId: true } }),
  ]);
  return {
    parentOf: new Map(nodes.map((node) => [node.id, node.parentId])),
    leadNodeIds: new Set(leads.map((lead) => lead.nodeId)),
  };
}

/** The live node, or a 404 that names the id. */
export async function findLiveNode(tx: Tx, nodeId: string): Promise<LiveNode> {
  const node = await tx.budgetNode.findFirst({
    where: { id: nodeId, removedAt: null },
    select: { id: true, parentId: true, name: true, version: true },
  });
  if (!node) throw new AppError("not_found", `No budget has id "${nodeId}".`);
  return node;
}

/** Leads of the node or an ancestor (and admins) change its children and its members. */
export function canEditChildren(user: SessionUser, nodeId: string, access: TreeAccess): boolean {
  return canEditBelow(user, nodeId, access.parentOf, access.leadNodeIds);
}

/** A node's leads are managed from above: by leads of an ancestor; the root's by admins. */
export function canManageLeads(user: SessionUser, node: LiveNode, access: TreeAccess): boolean {
  if (user.isAdmin) return true;
  if (node.parentId === null) return false;
  return canEditBelow(user, node.parentId, access.parentOf, access.leadNodeIds);
}

export function assertAllowed(isAllowed: boolean, message: string): void {
  if (!isAllowed) throw new AppError("forbidden", message);
}

/** For pages: the nodes whose children and members, and whose leads, `user` may change. */
export async function getEditRights(
  user: SessionUser,
): Promise<{ editableIds: Set<string>; leadManagedIds: Set<string> }> {
  const access = await loadTreeAccess(getDb(), user);
  const editableIds = new Set<string>();
  const leadManagedIds = new Set<string>();
  for (const [id, parentId] of access.parentOf) {
    if (canEditChildren(user, id, access)) editableIds.add(id);
    if (user.isAdmin || (parentId !== null && canEditChildren(user, parentId, access))) {
      leadManagedIds.add(id);
    }
  }
  return { editableIds, leadManagedIds };
}
