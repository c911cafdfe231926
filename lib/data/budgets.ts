import "server-only";
import { validateBudgetTree } from "../engine/budget-tree";
import { getDb } from "./db/app-db";
import { getEditRights } from "./budget-access";
import { keepRootedRows, UnusableTreeError } from "./tick/rooted-rows";
import type { SessionUser } from "./users";

export type PersonRef = { id: string; name: string; email: string };
/** A person as a viewer sees them: the email only where the viewer may see it. */
export type PersonView = { id: string; name: string; email?: string };

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
  leads: PersonView[];
  members: PersonView[];
};

const PERSON = { select: { user: { select: { id: true, name: true, email: true } } } } as const;

/**
 * The tree as `viewer` may see it (docs/security.md, "What each role reads"): everyone reads
 * the names, weights, shares, leads and members; an email only admins, the person themself
 * and the leads of a budget where the person is a lead or member (of it or an ancestor).
 */
export async function getBudgetTreeFor(viewer: SessionUser): Promise<BudgetNodeView[]> {
  const [nodes, rights] = await Promise.all([
    getBudgetTree(),
    viewer.isAdmin ? null : getEditRights(viewer),
  ]);
  return rights ? hideEmails(nodes, viewer.id, rights.editableIds) : nodes;
}

/** Leaves an email only on people of the nodes in `editableIds`, and on `viewerId`. */
export function hideEmails(
  nodes: readonly BudgetNodeView[],
  viewerId: string,
  editableIds: ReadonlySet<string>,
): BudgetNodeView[] {
  const visible = new Set([viewerId]);
  for (const node of nodes) {
    if (!editableIds.has(node.id)) continue;
    for (const person of [...node.leads, ...node.members]) visible.add(person.id);
  }
  const show = (person: PersonView): PersonView =>
    visible.has(person.id) ? person : { id: person.id, name: person.name };
  return nodes.map((node) => ({
    ...node,
    leads: node.leads.map(show),
    members: node.members.map(show),
  }));
}

/**
 * The whole tree in depth-first order with fractions and effective shares (engine maths),
 * every email included: for the server's own use. Pages and the API use {@link getBudgetTreeFor}.
 */
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
