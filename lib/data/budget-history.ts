// A node's history, newest first: edits of its children and of its people (who, when,
// why, before and after) and the node's own weight from each change on. Read-only: the
// app has no way to edit or delete history, and the database refuses it too.
import "server-only";
import { getDb } from "./db/app-db";
import { AppError } from "../errors";
import type { ChildState } from "./budget-state";
import { canEditChildren, loadTreeAccess } from "./budget-access";
import type { PersonView } from "./budgets";
import type { SessionUser } from "./users";

export type HistoryEntry =
  | {
      id: string;
      kind: "children";
      at: string;
      by: string | null;
      reason: string;
      before: ChildState[];
      after: ChildState[];
    }
  | {
      id: string;
      kind: "leads" | "members";
      at: string;
      by: string | null;
      reason: string;
      before: PersonView[];
      after: PersonView[];
    };

export type WeightEntry = { at: string; weightBefore: number | null; weightAfter: number | null };

export type NodeHistory = {
  node: { id: string; name: string; parentId: string | null; isRemoved: boolean };
  changes: HistoryEntry[];
  weights: WeightEntry[];
};

export const HISTORY_LIMIT = 200;

/**
 * The history of `nodeId` as `viewer` may read it: emails in people changes only for admins
 * and leads of the node or above (and the viewer's own), as in the tree (docs/security.md).
 */
export async function getNodeHistory(
  nodeId: string,
  viewer: SessionUser,
  limit = HISTORY_LIMIT,
): Promise<NodeHistory> {
  const db = getDb();
  const node = await db.budgetNode.findUnique({
    where: { id: nodeId },
    select: { id: true, name: true, parentId: true, removedAt: true },
  });
  if (!node) throw new AppError("not_found", `No budget has id "${nodeId}".`);
  const [changes, weights] = await Promise.all([
    db.allocationChange.findMany({
      where: { nodeId },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      take: limit,
      select: {
        id: true,
        kind: true,
        at: true,
        reason: true,
        before: true,
        after: true,
        user: { select: { name: true } },
      },
    }),
    db.weightChange.findMany({
      where: { nodeId },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      take: limit,
      select: { at: true, weightBefore: true, weightAfter: true },
    }),
  ]);
  const mayReadEmails =
    viewer.isAdmin || canEditChildren(viewer, nodeId, await loadTreeAccess(db, viewer));
  const show = (person: PersonView): PersonView =>
    mayReadEmails || person.id === viewer.id ? person : { id: person.id, name: person.name };
  return {
    node: { id: node.id, name: node.name, parentId: node.parentId, isRemoved: !!node.removedAt },
    // before/after are written only by budget-edits.ts and budget-people.ts, in these shapes.
    changes: changes.map((change) => {
      const entry = {
        id: change.id,
        kind: change.kind,
        at: change.at.toISOString(),
        by: change.user?.name ?? null,
        reason: change.reason,
        before: change.before,
        after: change.after,
      } as HistoryEntry;
      if (entry.kind === "children") return entry;
      return { ...entry, before: entry.before.map(show), after: entry.after.map(show) };
    }),
    weights: weights.map((row) => ({ ...row, at: row.at.toISOString() })),
  };
}
