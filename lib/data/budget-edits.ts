// One use case: set a node's children (weights, names, additions, removals) in one
// transaction, with the engine's check before the write and history rows beside it.
// The API route and the budgets page both call setChildren.
import "server-only";
import { applyChildrenEdit } from "../engine/budget-edit";
import { AppError } from "../errors";
import { getSplitWarnings, type SetChildrenInput } from "../validation/budgets";
import { getDb } from "./db/app-db";
import type { Prisma } from "../generated/prisma/client";
import {
  assertAllowed,
  canEditChildren,
  findLiveNode,
  loadTreeAccess,
  type LiveNode,
} from "./budget-access";
import { getChildrenState, type ChildrenState, type ChildState } from "./budget-state";
import { lockTreeForEdit } from "./tree-lock";
import type { SessionUser } from "./users";

/** `changed` false: the split was sent as it is, so nothing was written (`changeId` null). */
export type SetChildrenResult = ChildrenState & {
  changed: boolean;
  changeId: string | null;
  warnings: string[];
};

export const TRANSACTION = { timeout: 20_000, maxWait: 10_000 } as const;

/** Sets `nodeId`'s children as `input` says; 403, 404, 409 (stale version, busy child) or 422. */
export async function setChildren(
  user: SessionUser,
  nodeId: string,
  input: SetChildrenInput,
): Promise<SetChildrenResult> {
  return getDb().$transaction((tx) => setChildrenIn(tx, user, nodeId, input), TRANSACTION);
}

/** {@link setChildren} inside the caller's transaction (adopting a draft marks it in the same one). */
export async function setChildrenIn(
  tx: Prisma.TransactionClient,
  user: SessionUser,
  nodeId: string,
  input: SetChildrenInput,
): Promise<SetChildrenResult> {
  // Whole-tree lock first: removing this node's parent, or queueing a job on it, waits.
  await lockTreeForEdit(tx);
  const node = await findLiveNode(tx, nodeId);
  const access = await loadTreeAccess(tx, user);
  assertAllowed(
    canEditChildren(user, nodeId, access),
    `Only leads of "${node.name}" or of a budget above it can change its split.`,
  );
  const current = await getChildrenState(tx, nodeId);
  if (node.version === input.version && isSameSplit(current.children, input.children)) {
    // Nothing to save: a new version would send everyone else editing this split a conflict,
    // and the history an entry that changes nothing.
    return {
      ...current,
      changed: false,
      changeId: null,
      warnings: getSplitWarnings(input.children),
    };
  }
  // Bumping the version first takes the parent's row lock: a concurrent save of the same
  // split waits here, then finds the version moved and gets the 409.
  const locked = await tx.budgetNode.updateMany({
    where: { id: nodeId, version: input.version, removedAt: null },
    data: { version: { increment: 1 } },
  });
  if (locked.count === 0) await throwStale(tx, node, input.version);

  const { nodes, edit } = await checkChildrenEdit(tx, nodeId, input);
  const before = nodes
    .filter((child) => child.parentId === nodeId)
    .map(({ id, name, weight }) => ({ id, name, weight }));
  const removedIds = edit.removedIds;
  await refuseBusyBudgets(tx, removedIds, "remove a budget");
  if (before.length === 0 && input.children.length > 0) {
    // Only leaves are charged: queued work must not end up on a budget that was split.
    await refuseBusyBudgets(tx, [nodeId], "split a budget");
  }

  const at = new Date();
  if (removedIds.length > 0) {
    await tx.budgetNode.updateMany({
      where: { id: { in: removedIds } },
      data: { removedAt: at },
    });
    await tx.budgetLead.deleteMany({ where: { nodeId: { in: removedIds } } });
    await tx.budgetMember.deleteMany({ where: { nodeId: { in: removedIds } } });
  }
  const beforeById = new Map(before.map((child) => [child.id, child]));
  const kept = input.children.filter((child) => child.id !== undefined);
  // Renames go through a temporary name so that swapping two names never collides.
  const renamed = kept.filter((child) => beforeById.get(child.id!)?.name !== child.name);
  for (const child of renamed) {
    await tx.budgetNode.update({ where: { id: child.id }, data: { name: `~${child.id}` } });
  }
  const weightRows: Prisma.WeightChangeCreateManyInput[] = [];
  for (const child of kept) {
    const old = beforeById.get(child.id!)!;
    if (old.name === child.name && old.weight === child.weight) continue;
    await tx.budgetNode.update({
      where: { id: child.id },
      data: { name: child.name, weight: child.weight },
    });
    if (old.weight !== child.weight) {
      weightRows.push({
        nodeId: old.id,
        at,
        weightBefore: old.weight,
        weightAfter: child.weight,
      });
    }
  }
  const after: ChildState[] = [];
  for (const child of input.children) {
    if (child.id !== undefined) {
      after.push({ id: child.id, name: child.name, weight: child.weight });
      continue;
    }
    const created = await tx.budgetNode.create({
      data: { parentId: nodeId, name: child.name, weight: child.weight },
      select: { id: true },
    });
    after.push({ id: created.id, name: child.name, weight: child.weight });
    weightRows.push({ nodeId: created.id, at, weightBefore: null, weightAfter: child.weight });
  }
  const weightOf = new Map(nodes.map((row) => [row.id, row.weight]));
  for (const id of removedIds) {
    weightRows.push({
      nodeId: id,
      at,
      weightBefore: weightOf.get(id) ?? null,
      weightAfter: null,
    });
  }
  const change = await tx.allocationChange.create({
    data: {
      kind: "children",
      nodeId,
      userId: user.id,
      reason: input.reason,
      at,
      before,
      after,
    },
    select: { id: true },
  });
  await tx.weightChange.createMany({
    data: weightRows.map((row) => ({ ...row, changeId: change.id })),
  });
  const state = await getChildrenState(tx, nodeId);
  return {
    ...state,
    changed: true,
    changeId: change.id,
    warnings: getSplitWarnings(input.children),
  };
}

/** True when `edit` keeps every child of `saved` with its name and weight, and adds none. */
export function isSameSplit(
  saved: readonly ChildState[],
  edit: readonly { id?: string; name: string; weight: number }[],
): boolean {
  const savedById = new Map(saved.map((child) => [child.id, child]));
  return (
    edit.length === saved.length &&
    edit.every((child) => {
      const old = child.id === undefined ? undefined : savedById.get(child.id);
      return old !== undefined && old.name === child.name && old.weight === child.weight;
    })
  );
}

/**
 * The live tree and the engine's check of an edit of `nodeId`'s children on it (the editor's
 * preview runs the same function): 422 with the field of each problem when it is not valid.
 */
export async function checkChildrenEdit(
  tx: Prisma.TransactionClient,
  nodeId: string,
  input: SetChildrenInput,
) {
  // In the split's order (as getChildrenState reads it): the history's "before" keeps it.
  const nodes = await tx.budgetNode.findMany({
    where: { removedAt: null },
    select: { id: true, parentId: true, name: true, weight: true },
    orderBy: [{ createdAt: "asc" }, { name: "asc" }],
  });
  const formerChildIds = await findFormerChildIds(tx, nodeId, input.children);
  const edit = applyChildrenEdit(nodes, nodeId, input.children, { formerChildIds });
  if (!edit.ok) {
    throw new AppError(
      "validation_failed",
      "The new split is not valid.",
      edit.issues.map((issue) => ({ path: pathOfIssue(input, issue.id), message: issue.message })),
    );
  }
  return { nodes, edit: edit.value };
}

/**
 * The ids of an edit's children that were children of `parentId` and have been removed: the
 * engine says those are not its children "any more", and other unknown ids that they never were.
 */
export async function findFormerChildIds(
  db: Pick<Prisma.TransactionClient, "budgetNode">,
  parentId: string,
  children: readonly { id?: string }[],
): Promise<Set<string>> {
  const ids = children.flatMap((child) => (child.id === undefined ? [] : [child.id]));
  if (ids.length === 0) return new Set();
  const rows = await db.budgetNode.findMany({
    where: { id: { in: ids }, parentId, removedAt: { not: null } },
    select: { id: true },
  });
  return new Set(rows.map((row) => row.id));
}

/** " by Priya Raman" when the last change has an author (yourself included, in another tab). */
const changedBy = (name: string | null | undefined): string => (name ? ` by ${name}` : "");

/** The 409 of a stale version, with the split as saved now (also used for drafts). */
export async function throwStale(
  tx: Prisma.TransactionClient,
  node: LiveNode,
  sentVersion: number,
): Promise<never> {
  const current = await getChildrenState(tx, node.id);
  throw new AppError(
    "conflict",
    `"${node.name}" was changed since you opened it${changedBy(current.lastChange?.by)} (you edited version ${sentVersion}, it is now ${current.version}). Review that change and apply yours again.`,
    undefined,
    { kind: "stale-version", ...current },
  );
}

/** One entry a budget, states in order, budgets by name: "lm-pretrain: 5 pending and 4 running". */
function describeBusyBudgets(
  counts: readonly { budgetId: string; name: string; state: string; jobs: number }[],
): string {
  const statesById = new Map<string, { name: string; states: string[] }>();
  const byState = (a: { state: string }, b: { state: string }) => a.state.localeCompare(b.state);
  for (const row of [...counts].sort(byState)) {
    const entry = statesById.get(row.budgetId) ?? { name: row.name, states: [] };
    entry.states.push(`${row.jobs} ${row.state}`);
    statesById.set(row.budgetId, entry);
  }
  return [...statesById.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ name, states }) => `${name}: ${states.join(" and ")}`)
    .join(", ");
}

/** Removing or splitting a budget with queued or running work would orphan it: refuse. */
async function refuseBusyBudgets(
  tx: Prisma.TransactionClient,
  budgetIds: string[],
  action: string,
) {
  if (budgetIds.length === 0) return;
  const busy = await tx.job.groupBy({
    by: ["budgetId", "state"],
    where: { budgetId: { in: budgetIds }, state: { in: ["pending", "running"] } },
    _count: { _all: true },
  });
  if (busy.length === 0) return;
  const names = await tx.budgetNode.findMany({
    where: { id: { in: busy.map((row) => row.budgetId) } },
    select: { id: true, name: true },
  });
  const nameOf = new Map(names.map((row) => [row.id, row.name]));
  const counts = busy.map((row) => ({
    budgetId: row.budgetId,
    name: nameOf.get(row.budgetId) ?? row.budgetId,
    state: row.state,
    jobs: row._count._all,
  }));
  const summary = describeBusyBudgets(counts);
  throw new AppError(
    "conflict",
    `Cannot ${action} that has pending or running jobs (${summary}). Let them finish or cancel them first.`,
    undefined,
    { kind: "active-jobs", jobs: counts },
  );
}

function pathOfIssue(input: SetChildrenInput, id: string | undefined): string {
  const index = id === undefined ? -1 : input.children.findIndex((child) => child.id === id);
  return index >= 0 ? `children.${index}.id` : "children";
}
