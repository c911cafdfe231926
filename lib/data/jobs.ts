// Submitting, cancelling and reading jobs (POST /api/v1/jobs, the job pages).
import "server-only";
import { getDb } from "./db/app-db";
import { AppError } from "../errors";
import type { SubmitJobInput } from "../validation/jobs";
import { getBudgetNode } from "../engine";
import { getNow } from "./db/clock";
import { loadBudgetTree } from "./tick/load-state";
import { checkSubmission, loadSubmissionContext } from "./submissions";
import { lockCluster } from "./tick/tick";
import { tickAfterCommit } from "./tick/tick-queue";
import { lockTreeForUse } from "./tree-lock";

const SUBMIT_TRANSACTION = { timeout: 20_000, maxWait: 10_000 } as const;

export type JobCaller = { id: string; isAdmin: boolean };

/** Queues a job for `user` after every rule passed, then ticks its cluster. Returns its id. */
export async function submitJob(user: JobCaller, input: SubmitJobInput): Promise<string> {
  const ids = await submitJobs([{ userId: user.id, input }]);
  return ids[0]!;
}

/**
 * Queues several jobs (the demo executor's arrivals) and ticks each cluster once. All or none:
 * any rule broken by any job is a 422 naming the field (`jobs.3.gpus` for the fourth job).
 */
export async function submitJobs(
  entries: readonly { userId: string; input: SubmitJobInput }[],
): Promise<string[]> {
  if (entries.length === 0) return [];
  const db = getDb();
  const now = await getNow(db);
  // Checked and written under the shared tree lock: a removal of the leaf runs wholly before
  // (the job is refused) or after (the removal is refused: the budget is busy).
  const created = await db.$transaction(async (tx) => {
    await lockTreeForUse(tx);
    const userIds = [...new Set(entries.map((entry) => entry.userId))];
    const budgetIds = [...new Set(entries.map((entry) => entry.input.budgetId))];
    const context = await loadSubmissionContext(tx, userIds, budgetIds);
    const issues = entries.flatMap((entry, index) =>
      checkSubmission(context, entry.userId, entry.input).map((issue) => ({
        path: entries.length === 1 ? issue.path : `jobs.${index}.${issue.path}`,
        message: issue.message,
      })),
    );
    if (issues.length > 0) {
      throw new AppError("validation_failed", "The job cannot be submitted as it is.", issues);
    }
    const rows = entries.map(({ userId, input }) => ({
      clusterId: context.clusters.get(input.cluster)!.id,
      budgetId: input.budgetId,
      userId,
      name: input.name,
      gpus: input.gpus,
      minRuntimeSec: input.minRuntimeSec,
      isResumable: input.isResumable,
      priority: input.priority,
      jobClass: input.minRuntimeSec <= 900 && input.gpus <= 8 ? "debug" : "training",
      submittedAt: now,
      workSec: input.workSec ?? null,
      remainingWorkSec: input.workSec ?? null,
    }));
    return tx.job.createManyAndReturn({ data: rows, select: { id: true } });
  }, SUBMIT_TRANSACTION);
  for (const cluster of new Set(entries.map((entry) => entry.input.cluster))) {
    await tickAfterCommit(cluster, { db });
  }
  return created.map((row) => row.id);
}

/**
 * Cancels a pending or running job (its owner or an admin); a running one is stopped. Who did
 * it and why (`reason`, optional) are kept on the job and shown in its history.
 */
export async function cancelJob(user: JobCaller, jobId: string, reason?: string): Promise<void> {
  const db = getDb();
  const job = await db.job.findUnique({
    where: { id: jobId },
    select: { userId: true, state: true, cluster: { select: { name: true } } },
  });
  if (!job) throw new AppError("not_found", `No job has id "${jobId}".`);
  if (job.userId !== user.id && !user.isAdmin) {
    throw new AppError("forbidden", "Only the job's owner or an admin may cancel it.");
  }
  const now = await getNow(db);
  // The state that decides is the one read under the cluster's lock: of twenty cancels at
  // once, one cancels and nineteen read "cancelled".
  const stateBefore = await db.$transaction(async (tx) => {
    await lockCluster(tx, job.cluster.name);
    const current = await tx.job.findUniqueOrThrow({
      where: { id: jobId },
      select: { state: true },
    });
    if (current.state !== "pending" && current.state !== "running") return current.state;
    await tx.run.updateMany({
      where: { jobId, endedAt: null },
      data: { endedAt: now, endReason: "cancelled" },
    });
    await tx.job.update({
      where: { id: jobId },
      data: {
        state: "cancelled",
        endedAt: now,
        waitRule: null,
        waitKey: null,
        queuePosition: null,
        cancelledById: user.id,
        cancelReason: reason ?? null,
      },
    });
    return current.state;
  });
  if (stateBefore !== "pending" && stateBefore !== "running") {
    throw new AppError(
      "conflict",
      `The job is already ${stateBefore}; only pending or running jobs can be cancelled.`,
    );
  }
  await tickAfterCommit(job.cluster.name, { db });
}

export type ChargeableBudget = { id: string; path: string };

/** The leaves `userId` may charge, by path. */
export async function listChargeableBudgets(userId: string): Promise<ChargeableBudget[]> {
  const db = getDb();
  const rows = await db.budgetMember.findMany({ where: { userId }, select: { nodeId: true } });
  // A member of nothing needs no tree: on a new site it has none until an admin signs in.
  if (rows.length === 0) return [];
  const tree = await loadBudgetTree(db);
  return rows
    .map((row) => getBudgetNode(tree, row.nodeId))
    .filter((node) => node?.isLeaf === true)
    .map((node) => ({ id: node!.id, path: node!.path }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
