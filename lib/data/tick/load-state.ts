// Loads what a tick needs of one cluster (TickState) and maps rows to the engine's types (epoch
// seconds); the engine's ClusterState (lib/engine/cluster-state.ts) is the pass's working state.
import "server-only";
import { computeLeafUsage, validateBudgetTree } from "../../engine";
import type { ActiveRun, BudgetTree, ClusterSpec, NodeSlice, PendingJob } from "../../engine";
import type { Prisma } from "../../generated/prisma/client";
import { AppError } from "../../errors";
import { toSec } from "../db/epoch";
import { keepRootedRows, UnusableTreeError } from "./rooted-rows";

export type Tx = Prisma.TransactionClient;

export { fromSec, toSec } from "../db/epoch";

/** A pending job as loaded, with what the tick compares and updates. */
export type LoadedPending = PendingJob & {
  waitRule: string | null;
  waitKey: string | null;
  queuePosition: number | null;
  remainingWorkSec: number | null;
};

/** An open run as loaded, with what a preemption needs to requeue its job. */
export type LoadedRun = ActiveRun & { remainingWorkSec: number | null };

export type TickState = {
  clusterId: string;
  spec: ClusterSpec;
  tree: BudgetTree;
  leafUsage: Record<string, number>;
  runs: LoadedRun[];
  pending: LoadedPending[];
  /** Draining nodes whose drain was already counted (drainedAt set). */
  drainedNodes: Set<number>;
};

/**
 * The live budget tree (removed nodes left out) in the same order as the budgets page:
 * ranking ties depend on input order.
 */
export async function loadBudgetTree(db: Tx): Promise<BudgetTree> {
  const rows = await db.budgetNode.findMany({
    where: { removedAt: null },
    select: { id: true, parentId: true, name: true, weight: true },
    orderBy: [{ createdAt: "asc" }, { name: "asc" }],
  });
  const tree = validateBudgetTree(keepRootedRows(rows));
  if (!tree.ok) throw new UnusableTreeError(tree.issues[0]?.message ?? "invalid");
  return tree.value;
}

/** Everything a scheduling pass of `clusterName` needs at `now`. */
export async function loadTickState(db: Tx, clusterName: string, now: Date): Promise<TickState> {
  const cluster = await db.cluster.findUnique({
    where: { name: clusterName },
    select: {
      id: true,
      name: true,
      lookbackSec: true,
      maxMinRuntimeSec: true,
      nodes: { select: { index: true, gpus: true, health: true, drainedAt: true } },
    },
  });
  if (!cluster) throw new AppError("not_found", `No cluster is named "${clusterName}".`);
  const windowStart = new Date(now.getTime() - cluster.lookbackSec * 1000);
  const [tree, openRuns, windowRuns, pendingRows] = await Promise.all([
    loadBudgetTree(db),
    db.run.findMany({
      where: { clusterId: cluster.id, endedAt: null },
      select: {
        id: true,
        jobId: true,
        budgetId: true,
        gpus: true,
        placement: true,
        startedAt: true,
        isAllocated: true,
        protectedUntil: true,
        job: {
          select: { userId: true, isResumable: true, priority: true, remainingWorkSec: true },
        },
      },
      orderBy: { startedAt: "asc" },
    }),
    db.run.findMany({
      where: {
        clusterId: cluster.id,
        isAllocated: true,
        startedAt: { lt: now },
        OR: [{ endedAt: null }, { endedAt: { gt: windowStart } }],
      },
      select: { budgetId: true, gpus: true, startedAt: true, endedAt: true },
    }),
    db.job.findMany({
      where: { clusterId: cluster.id, state: "pending" },
      select: {
        id: true,
        budgetId: true,
        userId: true,
        gpus: true,
        minRuntimeSec: true,
        isResumable: true,
        priority: true,
        submittedAt: true,
        waitRule: true,
        waitKey: true,
        queuePosition: true,
        remainingWorkSec: true,
      },
      orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
    }),
  ]);
  const nowSec = toSec(now);
  const nodes = [...cluster.nodes].sort((a, b) => a.index - b.index);
  return {
    clusterId: cluster.id,
    spec: {
      name: cluster.name,
      nodes: nodes.map(({ index, gpus, health }) => ({ index, gpus, health })),
      lookbackSec: cluster.lookbackSec,
      maxMinRuntimeSec: cluster.maxMinRuntimeSec,
    },
    tree,
    leafUsage: computeLeafUsage(
      windowRuns.map((run) => ({
        budgetId: run.budgetId,
        gpus: run.gpus,
        startSec: toSec(run.startedAt),
        endSec: run.endedAt ? toSec(run.endedAt) : null,
        isAllocated: true,
      })),
      nowSec,
      { kind: "window", lookbackSec: cluster.lookbackSec },
    ),
    runs: openRuns.map((run) => ({
      id: run.id,
      jobId: run.jobId,
      budgetId: run.budgetId,
      userId: run.job.userId,
      gpus: run.gpus,
      placement: run.placement as NodeSlice[],
      startSec: toSec(run.startedAt),
      isAllocated: run.isAllocated,
      protectedUntilSec: toSec(run.protectedUntil),
      isResumable: run.job.isResumable,
      priority: run.job.priority,
      remainingWorkSec: run.job.remainingWorkSec,
    })),
    pending: pendingRows.map((job) => ({
      id: job.id,
      budgetId: job.budgetId,
      userId: job.userId,
      gpus: job.gpus,
      minRuntimeSec: job.minRuntimeSec,
      isResumable: job.isResumable,
      priority: job.priority,
      submitSec: toSec(job.submittedAt),
      waitRule: job.waitRule,
      waitKey: job.waitKey,
      queuePosition: job.queuePosition,
      remainingWorkSec: job.remainingWorkSec,
    })),
    drainedNodes: new Set(
      nodes.filter((node) => node.health === "draining" && node.drainedAt).map((n) => n.index),
    ),
  };
}
