// The stored tree as the engine may use it: the budgets reachable from the one root through
// live parents. Pure, so that it is tested on literal rows.
import { AppError } from "../../errors";
import { getLogger } from "../../log/logger";

/** What a site with no budget yet is told: nothing is broken, no admin has signed in yet. */
const EMPTY_TREE_MESSAGE =
  "The budget tree is empty: its root is made when the first admin (ALLOT_ADMINS) signs in.";

/** The stored tree cannot be used at all (no single root): the tick skips, pages say so. */
export class UnusableTreeError extends AppError {
  /** `reason`: why the stored tree cannot be used, or null when it has no budget at all. */
  constructor(reason: string | null) {
    super(
      "unavailable",
      reason === null
        ? EMPTY_TREE_MESSAGE
        : `The stored budget tree cannot be used (${reason}); an admin must repair it.`,
    );
    this.name = "UnusableTreeError";
  }
}

type TreeRow = { id: string; parentId: string | null; name: string; weight: number };

/**
 * The rows reachable from the root through live parents. A live node below a removed one
 * (left by a race before the tree lock and its foreign keys existed) is left out with its
 * subtree and reported, so that one broken branch never stops every cluster.
 */
export function keepRootedRows<Row extends TreeRow>(rows: readonly Row[]): Row[] {
  if (rows.length === 0) throw new UnusableTreeError(null);
  const childrenOf = new Map<string | null, Row[]>();
  for (const row of rows) {
    const list = childrenOf.get(row.parentId);
    if (list) list.push(row);
    else childrenOf.set(row.parentId, [row]);
  }
  const roots = childrenOf.get(null) ?? [];
  if (roots.length !== 1) throw new UnusableTreeError(`${roots.length} roots`);
  const kept = new Set<string>();
  const stack = [roots[0]!];
  while (stack.length > 0) {
    const row = stack.pop()!;
    if (kept.has(row.id)) continue;
    kept.add(row.id);
    stack.push(...(childrenOf.get(row.id) ?? []));
  }
  if (kept.size === rows.length) return [...rows];
  const left = rows.filter((row) => !kept.has(row.id));
  getLogger().error(
    { budgets: left.map((row) => row.id) },
    `budget tree: ${left.length} live budgets below a removed one are left out: ` +
      left.map((row) => `${row.name} (${row.id})`).join(", "),
  );
  return rows.filter((row) => kept.has(row.id));
}
