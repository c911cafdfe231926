// What-if runs: simulations of kind "what-if", each linked to the draft it replays.
import "server-only";
import { getDraft, getDraftForEditor, type DraftView } from "../../data/budget-drafts";
import { getDb } from "../../data/db/app-db";
import type { SessionUser } from "../../data/users";
import { AppError } from "../../errors";
import type { WhatIfOptions, WhatIfSummary } from "../what-if/summary";
import { TRANSACTION } from "../../data/budget-edits";
import { insertWithinQuota } from "./simulation-store";
import {
  SIMULATION_VIEW,
  STALE_AFTER_MS,
  toSimulationView,
  waitingQuotaNow,
  type SimulationView,
} from "./simulations";

/** A what-if as pages and the API show it. */
export type WhatIfView = Omit<SimulationView, "summary" | "options" | "source"> & {
  draftId: string;
  options: WhatIfOptions;
  summary: WhatIfSummary | null;
};

const VIEW = { ...SIMULATION_VIEW, draftId: true } as const;

function toWhatIfView(
  row: Parameters<typeof toSimulationView>[0] & { draftId: string | null },
  nowMs: number,
): WhatIfView {
  const { summary, options, source: _source, ...view } = toSimulationView(row, nowMs);
  return {
    ...view,
    draftId: row.draftId ?? "",
    options: options as unknown as WhatIfOptions,
    summary: summary as unknown as WhatIfSummary | null,
  };
}

/** A draft's what-ifs, newest first. */
export async function listWhatIfs(draftId: string): Promise<WhatIfView[]> {
  const rows = await getDb().simulation.findMany({
    where: { draftId, kind: "what-if" },
    orderBy: { createdAt: "desc" },
    select: VIEW,
  });
  const nowMs = Date.now();
  return rows.map((row) => toWhatIfView(row, nowMs));
}

/** One what-if of a draft, or null. Callers check the viewer may see the draft. */
export async function findWhatIf(draftId: string, id: string): Promise<WhatIfView | null> {
  const row = await getDb().simulation.findFirst({
    where: { id, draftId, kind: "what-if" },
    select: VIEW,
  });
  return row ? toWhatIfView(row, Date.now()) : null;
}

/** Queues a what-if of a draft within its owner's quota (429 past it); returns its id. */
export async function insertWhatIf(input: {
  userId: string;
  draftId: string;
  name: string;
  options: WhatIfOptions;
}): Promise<string> {
  return insertWithinQuota(getDb(), input.userId, waitingQuotaNow(), async (tx) => {
    const row = await tx.simulation.create({
      data: {
        kind: "what-if",
        source: "what-if",
        userId: input.userId,
        draftId: input.draftId,
        name: input.name,
        options: input.options,
      },
      select: { id: true },
    });
    return row.id;
  });
}

/** One what-if of a draft, for people who may edit the draft's node (404, 403). */
export async function getWhatIfForEditor(
  user: SessionUser,
  draftId: string,
  runId: string,
): Promise<WhatIfView> {
  await getDraftForEditor(getDb(), user, draftId);
  const run = await findWhatIf(draftId, runId);
  if (!run) throw new AppError("not_found", `Draft "${draftId}" has no what-if "${runId}".`);
  return run;
}

/** A draft with the split in force now and its what-ifs; 404 unknown, 403 for non-editors. */
export async function getDraftWithWhatIfs(
  user: SessionUser,
  draftId: string,
): Promise<DraftView & { whatIfs: WhatIfView[] }> {
  const draft = await getDraft(user, draftId);
  return { ...draft, whatIfs: await listWhatIfs(draftId) };
}

/**
 * Discards a draft that was not adopted, with its what-ifs: 404, 403, 409 when it was adopted
 * (it is then part of the budget's history) or one of its what-ifs is queued or running (a
 * running one whose worker has been silent for STALE_AFTER_MS, shown as failed, does not count).
 */
export async function discardDraft(
  user: SessionUser,
  draftId: string,
): Promise<{ id: string; nodeId: string }> {
  return getDb().$transaction(async (tx) => {
    const { nodeId } = await getDraftForEditor(tx, user, draftId);
    // Locked to the end: an adoption, another discard or a what-if being added waits for it
    // (the what-if then finds no draft, 409), so what is read below stays true.
    const [locked] = await tx.$queryRaw<{ adoptedAt: Date | null }[]>`
      SELECT "adoptedAt" FROM budget_drafts WHERE id = ${draftId} FOR UPDATE`;
    if (!locked) throw new AppError("not_found", `No draft has id "${draftId}".`);
    if (locked.adoptedAt) {
      throw new AppError(
        "conflict",
        "This draft was adopted: it is part of the budget's history and is kept.",
        undefined,
        { kind: "already-adopted" },
      );
    }
    const liveSince = new Date(Date.now() - STALE_AFTER_MS);
    const busy = await tx.simulation.count({
      where: {
        draftId,
        OR: [{ status: "queued" }, { status: "running", updatedAt: { gt: liveSince } }],
      },
    });
    if (busy > 0) {
      throw new AppError(
        "conflict",
        "A what-if of this draft is still running; discard the draft once it has finished.",
        undefined,
        { kind: "what-if-running" },
      );
    }
    await tx.budgetDraft.delete({ where: { id: draftId } });
    return { id: draftId, nodeId };
  }, TRANSACTION);
}
