// The one use case behind POST /api/v1/drafts/{id}/what-ifs: check the draft and the period,
// store a what-if (a simulation of kind "what-if" linked to the draft), hand it to a worker.
import "server-only";
import { applyChildrenEdit } from "../../engine/budget-edit";
import { getDraftForEditor } from "../../data/budget-drafts";
import { findFormerChildIds } from "../../data/budget-edits";
import { getNow } from "../../data/db/clock";
import { listClusters } from "../../data/clusters";
import { countRunning } from "../store/simulations";
import { insertWhatIf } from "../store/what-ifs";
import { getDb } from "../../data/db/app-db";
import { AppError } from "../../errors";
import { formatDateTime } from "../../format";
import type { SessionUser } from "../../data/users";
import type { StartWhatIfInput } from "../../validation/what-if";
import { loadDefaultPeriod } from "../../data/review";
import type { WhatIfOptions } from "../what-if/summary";
import { MAX_RUNNING_WORKERS, startSimulationWorker } from "./start-worker";

/** "2026-10-01 – 2026-10-31 on h100, b200": the run's name, also quoted by an adoption. */
export function describePeriod(options: WhatIfOptions, clusterCount: number): string {
  const to = new Date(options.to);
  const isWholeDays = to.getTime() % 86_400_000 === 0;
  const lastDay = isWholeDays
    ? new Date(to.getTime() - 1).toISOString().slice(0, 10)
    : `${options.to.slice(0, 16).replace("T", " ")} UTC`;
  const clusters =
    options.clusters.length === clusterCount ? "all clusters" : options.clusters.join(", ");
  return `${options.from.slice(0, 10)} – ${lastDay} on ${clusters}`;
}

/**
 * A 422 when no job was submitted on the clusters before the period ends: nothing to replay.
 * `isGiven`: the caller chose the period (its `to` is then the field to name).
 */
async function assertHistoryIn(
  db: ReturnType<typeof getDb>,
  period: { from: Date; to: Date },
  clusters: string[],
  isGiven: boolean,
) {
  const first = await db.job.findFirst({
    where: { cluster: { name: { in: clusters } } },
    orderBy: { submittedAt: "asc" },
    select: { submittedAt: true },
  });
  if (first && first.submittedAt < period.to) return;
  if (!first) {
    throw new AppError(
      "validation_failed",
      `No job has been submitted on ${clusters.join(", ")} yet: there is no history to replay.`,
    );
  }
  const their = clusters.length === 1 ? "its" : "their";
  const message = `Choose a period that ends later: ${their} history begins ${formatDateTime(first.submittedAt)}.`;
  throw new AppError(
    "validation_failed",
    "The period has no history to replay.",
    isGiven ? [{ path: "to", message }] : undefined,
    isGiven ? undefined : { hint: message },
  );
}

/**
 * A draft that splits a leaf cannot be replayed on a period in which that leaf had jobs: only
 * leaves are charged, so their work would have no budget. Said at once (422 on `children`),
 * rather than by the replay failing after it ran.
 */
async function assertNoJobsOfSplitLeaf(
  db: ReturnType<typeof getDb>,
  input: {
    nodes: readonly { id: string; parentId: string | null; name: string }[];
    draft: { nodeId: string; children: readonly unknown[] };
    period: { from: Date; to: Date };
    clusters: string[];
  },
): Promise<void> {
  const { nodes, draft, period, clusters } = input;
  const isLeaf = !nodes.some((node) => node.parentId === draft.nodeId);
  if (!isLeaf || draft.children.length === 0) return;
  const job = await db.job.findFirst({
    where: {
      budgetId: draft.nodeId,
      cluster: { name: { in: clusters } },
      submittedAt: { lt: period.to },
      OR: [{ endedAt: null }, { endedAt: { gt: period.from } }],
    },
    select: { id: true },
  });
  if (!job) return;
  const name = nodes.find((node) => node.id === draft.nodeId)?.name ?? draft.nodeId;
  throw new AppError("validation_failed", "This split cannot be replayed on this period.", [
    {
      path: "children",
      message: `${name} had jobs in the period (job ${job.id}), and only leaves are charged: under this split their work would have no budget. Replay a period in which ${name} had no jobs.`,
    },
  ]);
}

/**
 * Queues a what-if of `draftId` for `user` (who must be allowed to edit the draft's node):
 * 404 unknown draft, 403, 422 unknown cluster, a period starting in the future (one that
 * has not ended is replayed up to now) or one that ends before the clusters' history begins
 * (nothing to replay), 409 when the draft
 * no longer applies to the tree (a budget it names was removed).
 */
export async function startWhatIf(user: SessionUser, draftId: string, input: StartWhatIfInput) {
  const db = getDb();
  const draft = await getDraftForEditor(db, user, draftId);
  const now = await getNow();
  const fallback = await loadDefaultPeriod(db, Math.floor(now.getTime() / 1000));
  const asked =
    input.from && input.to
      ? { from: input.from, to: input.to }
      : { from: new Date(fallback.fromSec * 1000), to: new Date(fallback.toSec * 1000) };
  if (asked.from.getTime() >= now.getTime()) {
    throw new AppError("validation_failed", "The period has not started yet.", [
      { path: "from", message: `Choose a start before now (${formatDateTime(now)}).` },
    ]);
  }
  // A period that has not ended yet is replayed so far: demand after now is not known.
  const period = { from: asked.from, to: new Date(Math.min(asked.to.getTime(), now.getTime())) };
  const clusters = await listClusters();
  const known = new Set(clusters.map((cluster) => cluster.name));
  const chosen = input.clusters ?? clusters.map((cluster) => cluster.name);
  const unknown = chosen.flatMap((name, index) =>
    known.has(name) ? [] : [{ path: `clusters.${index}`, message: `No cluster "${name}".` }],
  );
  if (unknown.length > 0) throw new AppError("validation_failed", "Unknown cluster.", unknown);
  await assertHistoryIn(db, period, chosen, Boolean(input.from && input.to));
  const nodes = await db.budgetNode.findMany({
    where: { removedAt: null },
    select: { id: true, parentId: true, name: true, weight: true },
  });
  await assertNoJobsOfSplitLeaf(db, { nodes, draft, period, clusters: chosen });
  const formerChildIds = await findFormerChildIds(db, draft.nodeId, draft.children);
  const applied = applyChildrenEdit(nodes, draft.nodeId, draft.children, { formerChildIds });
  if (!applied.ok) {
    throw new AppError(
      "conflict",
      `The draft no longer applies to the tree: ${applied.issues[0]?.message ?? "it changed"}`,
      undefined,
      { kind: "draft-outdated" },
    );
  }
  const options: WhatIfOptions = {
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    clusters: [...new Set(chosen)].sort(),
    hasControl: input.hasControl ?? false,
  };
  const id = await insertWhatIf({
    userId: user.id,
    draftId,
    name: describePeriod(options, clusters.length),
    options,
  });
  if ((await countRunning()) < MAX_RUNNING_WORKERS) startSimulationWorker(id);
  return id;
}
