// Drafts: a proposed split of one node's children, kept beside the live tree. Created with the
// same checks as a real edit, visible to the people who may edit the node, adopted through
// setChildrenIn (the normal edit, with history) in the transaction that marks them adopted.
import "server-only";
import { AppError } from "../errors";
import { getDb } from "./db/app-db";
import { adoptionReason } from "../sentences/budget-changes";
import type { Prisma } from "../generated/prisma/client";
import type { CreateDraftInput } from "../validation/what-if";
import { assertAllowed, canEditChildren, findLiveNode, loadTreeAccess } from "./budget-access";
import {
  checkChildrenEdit,
  setChildrenIn,
  throwStale,
  TRANSACTION,
  type SetChildrenResult,
} from "./budget-edits";
import type { ChildState } from "./budget-state";
import { lockTreeForEdit } from "./tree-lock";
import type { SessionUser } from "./users";

type Tx = Prisma.TransactionClient;

/** A proposed child: with an id it exists, without one the draft adds it. */
export type DraftChildView = { id?: string; name: string; weight: number };

export type DraftListItem = {
  id: string;
  nodeId: string;
  authorName: string;
  reason: string;
  children: DraftChildView[];
  basedOnVersion: number;
  createdAt: string;
  adoptedAt: string | null;
  whatIfCount: number;
};

export type DraftView = DraftListItem & {
  nodeName: string;
  /** The node's version now: a draft whose base moved cannot be adopted (409). */
  currentVersion: number;
  isStale: boolean;
  /** The split in force now. */
  currentChildren: ChildState[];
  /**
   * An adopted draft's history entry: the split it replaced and the one it made (new budgets
   * with their ids). Null until adopted (or for a draft adopted before entries were linked).
   */
  adoption: { before: ChildState[]; after: ChildState[] } | null;
};

const DRAFT = {
  id: true,
  nodeId: true,
  reason: true,
  children: true,
  basedOnVersion: true,
  createdAt: true,
  adoptedAt: true,
  author: { select: { name: true } },
  _count: { select: { simulations: true } },
} as const;

type DraftRow = {
  id: string;
  nodeId: string;
  reason: string;
  children: unknown;
  basedOnVersion: number;
  createdAt: Date;
  adoptedAt: Date | null;
  author: { name: string };
  _count: { simulations: number };
};

function toListItem(row: DraftRow): DraftListItem {
  return {
    id: row.id,
    nodeId: row.nodeId,
    authorName: row.author.name,
    reason: row.reason,
    children: row.children as DraftChildView[],
    basedOnVersion: row.basedOnVersion,
    createdAt: row.createdAt.toISOString(),
    adoptedAt: row.adoptedAt?.toISOString() ?? null,
    whatIfCount: row._count.simulations,
  };
}

/** The node, after checking `user` may edit its children (404, then 403). */
async function requireEditor(
  tx: Parameters<typeof findLiveNode>[0],
  user: SessionUser,
  nodeId: string,
) {
  const node = await findLiveNode(tx, nodeId);
  const access = await loadTreeAccess(tx, user);
  assertAllowed(
    canEditChildren(user, nodeId, access),
    `Only leads of "${node.name}" or of a budget above it can draft or see drafts of its split.`,
  );
  return node;
}

/**
 * Stores a draft of `nodeId`'s children without touching the live tree: 404, 403, 409 when
 * `input.version` is not the node's version, 422 (field paths as a real edit) when the split
 * is not valid.
 */
export async function createDraft(
  user: SessionUser,
  nodeId: string,
  input: CreateDraftInput,
): Promise<DraftListItem> {
  return getDb().$transaction(async (tx) => {
    const node = await requireEditor(tx, user, nodeId);
    if (node.version !== input.version) await throwStale(tx, node, input.version);
    await checkChildrenEdit(tx, nodeId, input);
    const children = input.children.map((child) => ({
      ...(child.id === undefined ? {} : { id: child.id }),
      name: child.name,
      weight: child.weight,
    }));
    const row = await tx.budgetDraft.create({
      data: {
        nodeId,
        authorId: user.id,
        reason: input.reason,
        children,
        basedOnVersion: input.version,
      },
      select: DRAFT,
    });
    return toListItem(row);
  }, TRANSACTION);
}

/** The node (its name and version) and its drafts, newest first (404, 403). */
export async function listDrafts(
  user: SessionUser,
  nodeId: string,
): Promise<{ node: { id: string; name: string; version: number }; drafts: DraftListItem[] }> {
  const db = getDb();
  const node = await requireEditor(db, user, nodeId);
  const rows = await db.budgetDraft.findMany({
    where: { nodeId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: DRAFT,
  });
  return {
    node: { id: node.id, name: node.name, version: node.version },
    drafts: rows.map(toListItem),
  };
}

/**
 * A draft with the split in force now; 404 unknown, 403 for non-editors. Its what-ifs are
 * lib/simulations/store/what-ifs.ts's getDraftWithWhatIfs.
 */
export async function getDraft(user: SessionUser, draftId: string): Promise<DraftView> {
  const db = getDb();
  const row = await db.budgetDraft.findUnique({
    where: { id: draftId },
    select: { ...DRAFT, adoptedChange: { select: { before: true, after: true } } },
  });
  if (!row) throw new AppError("not_found", `No draft has id "${draftId}".`);
  const node = await requireEditor(db, user, row.nodeId);
  const children = await db.budgetNode.findMany({
    where: { parentId: node.id, removedAt: null },
    select: { id: true, name: true, weight: true },
    orderBy: [{ createdAt: "asc" }, { name: "asc" }],
  });
  return {
    ...toListItem(row),
    nodeName: node.name,
    currentVersion: node.version,
    isStale: row.adoptedAt === null && node.version !== row.basedOnVersion,
    currentChildren: children,
    adoption: row.adoptedChange
      ? {
          before: row.adoptedChange.before as ChildState[],
          after: row.adoptedChange.after as ChildState[],
        }
      : null,
  };
}

/** The draft row a what-if or an adoption works on, with the editor check. */
export async function getDraftForEditor(
  tx: Tx | ReturnType<typeof getDb>,
  user: SessionUser,
  draftId: string,
) {
  const draft = await tx.budgetDraft.findUnique({
    where: { id: draftId },
    select: {
      id: true,
      nodeId: true,
      reason: true,
      children: true,
      basedOnVersion: true,
      adoptedAt: true,
      createdAt: true,
    },
  });
  if (!draft) throw new AppError("not_found", `No draft has id "${draftId}".`);
  await requireEditor(tx, user, draft.nodeId);
  return { ...draft, children: draft.children as DraftChildView[] };
}

/**
 * Adopts a draft: saves its split through the normal edit (same checks, one history entry
 * whose reason names the draft and its what-ifs) and marks it adopted, in one
 * transaction. 409 when it was adopted already or the split changed since it was drafted
 * (with the split as saved now, as a stale edit gets).
 */
export async function adoptDraft(
  user: SessionUser,
  draftId: string,
  reason: string,
): Promise<SetChildrenResult & { draftId: string }> {
  return getDb().$transaction(async (tx) => {
    await lockTreeForEdit(tx);
    const draft = await getDraftForEditor(tx, user, draftId);
    const marked = await tx.budgetDraft.updateMany({
      where: { id: draftId, adoptedAt: null },
      data: { adoptedAt: new Date() },
    });
    if (marked.count === 0) {
      throw new AppError("conflict", "This draft was adopted already.", undefined, {
        kind: "already-adopted",
      });
    }
    const done = await tx.simulation.findMany({
      where: { draftId, status: "done" },
      orderBy: { createdAt: "desc" },
      select: { name: true },
    });
    const periods = done.map((run) => run.name);
    const result = await setChildrenIn(tx, user, draft.nodeId, {
      version: draft.basedOnVersion,
      reason: adoptionReason(draft.createdAt, periods, reason).slice(0, 500),
      children: draft.children,
    });
    await tx.budgetDraft.update({
      where: { id: draftId },
      data: { adoptedChangeId: result.changeId },
    });
    return { ...result, draftId };
  }, TRANSACTION);
}
