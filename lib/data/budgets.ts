import "server-only";
import { validateBudgetTree } from "../engine/budget-tree";
import { getDb } from "../db";
import { keepRootedRows, UnusableTreeError } from "./rooted-rows";

export type PersonRef = { id: string; name: string; email: string };

/** One node of the budget tree as pages and the API show it. */
export type BudgetNodeView = {
  id: string;
  parentId: string | null;
  name: string;
  path: string;
  depth: number;
  isLeaf: boolean;
  weight: number;
  version: number;
  /** weight / sum of sibling weights. */
  fraction: number;
  /** Product of fractions from the root down. */
  effectiveShare: number;
  leads: PersonRef[];
  members: PersonRef[];
};

const PERSON = { select: { user: { select: { id: true, name: true, email: true } } } } as const;

/** The whole tree in depth-first order with fractions and effective shares (engine maths). */
export async function getBudgetTree(): Promise<BudgetNodeView[]> {
  const rows = await getDb().budgetNode.findMany({
    where: { removedAt: null },
    select: {
      id: true,
      parentId: true,
      name: true,
      weight: true,
      version: true,
      leads: PERSON,
      members: PERSON,
    },
    orderBy: [{ createdAt: "asc" }, { name: "asc" }],
  });
  if (rows.length === 0) return [];
  const tree = validateBudgetTree(keepRootedRows(rows));
  if (!tree.ok) throw new UnusableTreeError(tree.issues[0]?.message ?? "invalid");
  const rowById = new Map(rows.map((row) => [row.id, row]));
  return tree.value.nodes.map((node) => {
    const row = rowById.get(node.id);
    const byName = (a: PersonRef, b: PersonRef) => a.name.localeCompare(b.name);
    return {
      id: node.id,
      parentId: node.parentId,
      name: node.name,
      path: node.path,
      depth: node.depth,
      isLeaf: node.isLeaf,
      weight: node.weight,
      version: row?.version ?? 1,
      fraction: node.fraction,
      effectiveShare: node.effectiveShare,
      leads: (row?.leads ?? []).map((lead) => lead.user).sort(byName),
      members: (row?.members ?? []).map((member) => member.user).sort(byName),
    };
  });
}
