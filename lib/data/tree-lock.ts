// One lock for the budget tree (docs/decisions/082-budget-tree-lock.md). Every change to the
// tree's shape or people takes it exclusively, and every job submission takes it shared, at
// the start of its transaction: so removing a budget never interleaves with adding a child to
// it or queueing a job on it, and each of them reads the tree the other one left. Edits are
// rare and short; submissions do not wait for one another. Triggers in the database are the
// backstop for a writer that does not take it.
import "server-only";
import type { Tx } from "./tick/load-state";

/** First key of the tree lock; the cluster locks use 7731 (lib/data/tick/tick.ts). */
const TREE_LOCK_CLASS = 7732;

/** Waits for the tree lock alone: for changes to nodes, weights, names, leads and members. */
export async function lockTreeForEdit(tx: Tx): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${TREE_LOCK_CLASS}::int, 0)::text`;
}

/** Waits for the tree lock shared with other readers: for queueing jobs on leaves. */
export async function lockTreeForUse(tx: Tx): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock_shared(${TREE_LOCK_CLASS}::int, 0)::text`;
}
