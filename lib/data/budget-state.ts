// A node's children as an editor needs them: the current version, the split, and the
// last change (who, when, why). Sent with a save's answer and with a 409.
import "server-only";
import type { Prisma } from "../generated/prisma/client";

export type ChildState = { id: string; name: string; weight: number };

export type ChildrenState = {
  nodeId: string;
  name: string;
  version: number;
  children: ChildState[];
  lastChange: { by: string | null; at: string; reason: string } | null;
};

type Reader = Pick<Prisma.TransactionClient, "budgetNode" | "allocationChange">;

export async function getChildrenState(db: Reader, nodeId: string): Promise<ChildrenState> {
  const [node, last] = await Promise.all([
    db.budgetNode.findUniqueOrThrow({
      where: { id: nodeId },
      select: {
        id: true,
        name: true,
        version: true,
        children: {
          where: { removedAt: null },
          select: { id: true, name: true, weight: true },
          orderBy: [{ createdAt: "asc" }, { name: "asc" }],
        },
      },
    }),
    db.allocationChange.findFirst({
      where: { nodeId, kind: "children" },
      orderBy: { at: "desc" },
      select: { at: true, reason: true, user: { select: { name: true } } },
    }),
  ]);
  return {
    nodeId: node.id,
    name: node.name,
    version: node.version,
    children: node.children,
    lastChange: last
      ? { by: last.user?.name ?? null, at: last.at.toISOString(), reason: last.reason }
      : null,
  };
}
