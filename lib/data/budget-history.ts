// A node's history, newest first: edits of its children and of its people (who, when,
// why, before and after) and the node's own weight from each change on. Read-only: the
// app has no way to edit or delete history, and the database refuses it too.
import "server-only";
import { getDb } from "../db";
import { AppError } from "../errors";
import type { ChildState } from "./budget-state";
import type { PersonRef } from "./budgets";

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
      before: PersonRef[];
      after: PersonRef[];
    };

export type WeightEntry = { at: string; weightBefore: number | null; weightAfter: number | null };

export type NodeHistory = {
  node: { id: string; name: string; parentId: string | null; isRemoved: boolean };
  changes: HistoryEntry[];
  weights: WeightEntry[];
};

export const HISTORY_LIMIT = 200;

export async function getNodeHistory(nodeId: string, limit = HISTORY_LIMIT): Promise<NodeHistory> {
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
  return {
    node: { id: node.id, name: node.name, parentId: node.parentId, isRemoved: !!node.removedAt },
    // before/after are written only by budget-edits.ts and budget-people.ts, in these shapes.
    changes: changes.map(
      (change) =>
        ({
          id: change.id,
          kind: change.kind,
          at: change.at.toISOString(),
          by: change.user?.name ?? null,
          reason: change.reason,
          before: change.before,
          after: change.after,
        }) as HistoryEntry,
    ),
    weights: weights.map((row) => ({ ...row, at: row.at.toISOString() })),
  };
}
