// A mirrored job that already runs on the executor (SLURM: one that ran before the bridge did)
// is adopted, not queued: Allot records the run the executor shows, on its nodes, from when it
// started, charged and protected as if Allot had started it then (docs/slurm.md, "Jobs running
// before the bridge"). A start Allot decided on those GPUs that the executor never confirmed
// did not happen there: it ends, and its job waits again, as after `job.requeued`.
import "server-only";
import type { ClusterNodeState, NodeSlice, StartReason } from "../engine";
import type { Prisma } from "../generated/prisma/client";
import type { ExecutorEvent } from "../validation/executor";
import type { Tx } from "./tick/load-state";

type Running = NonNullable<Extract<ExecutorEvent, { kind: "job.submitted" }>["running"]>;

/** What adopting a running job writes: its run, and the unconfirmed starts it undoes. */
export type Adoption = {
  placement: NodeSlice[];
  startedAt: Date;
  /** Unconfirmed starts on those GPUs, undone: each run and its job. */
  undone: { id: string; jobId: string }[];
};

/** Why the placement cannot be a run of `gpus` GPUs on the cluster's nodes, or null. */
export function placementProblem(
  nodes: readonly ClusterNodeState[],
  placement: readonly NodeSlice[],
  gpus: number,
): string | null {
  const byIndex = new Map(nodes.map((node) => [node.index, node]));
  const seen = new Set<number>();
  for (const slice of placement) {
    const node = byIndex.get(slice.node);
    if (!node) return `The cluster has no node ${slice.node}.`;
    if (seen.has(slice.node)) return `Node ${slice.node} is named twice.`;
    seen.add(slice.node);
    if (slice.gpus > node.gpus) {
      return `Node ${slice.node} has ${node.gpus} GPUs, not ${slice.gpus}.`;
    }
    if (node.health === "down") {
      return `Node ${slice.node} is down in Allot; the job is adopted once the node is back.`;
    }
  }
  const placed = placement.reduce((sum, slice) => sum + slice.gpus, 0);
  return placed === gpus ? null : `The placement holds ${placed} GPUs; the job asks for ${gpus}.`;
}

/**
 * Checks an adoption against the runs Allot has open on the cluster: the GPUs must be free once
 * the starts no executor confirmed on those nodes are undone (newest first, until the job fits).
 * Runs the executor confirmed are never undone: if they leave no room, it is refused.
 */
export async function planAdoption(
  tx: Tx,
  cluster: { id: string; nodes: readonly ClusterNodeState[] },
  running: Running,
  gpus: number,
  now: Date,
): Promise<Adoption | { reason: string }> {
  const problem = placementProblem(cluster.nodes, running.placement, gpus);
  if (problem) return { reason: problem };
  const open = await tx.run.findMany({
    where: { clusterId: cluster.id, endedAt: null },
    select: { id: true, jobId: true, placement: true, startAckedAt: true },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
  });
  const usedGpus = new Map<number, number>();
  for (const run of open) {
    for (const slice of run.placement as NodeSlice[]) {
      usedGpus.set(slice.node, (usedGpus.get(slice.node) ?? 0) + slice.gpus);
    }
  }
  const sizeOf = new Map(cluster.nodes.map((node) => [node.index, node.gpus]));
  const isShort = (node: number, needGpus: number) =>
    (usedGpus.get(node) ?? 0) + needGpus > sizeOf.get(node)!;
  const undone: { id: string; jobId: string }[] = [];
  for (const slice of running.placement) {
    for (const run of open) {
      if (!isShort(slice.node, slice.gpus)) break;
      if (run.startAckedAt || undone.some((entry) => entry.id === run.id)) continue;
      const slices = run.placement as NodeSlice[];
      if (!slices.some((entry) => entry.node === slice.node)) continue;
      undone.push({ id: run.id, jobId: run.jobId });
      for (const entry of slices) usedGpus.set(entry.node, usedGpus.get(entry.node)! - entry.gpus);
    }
    if (isShort(slice.node, slice.gpus)) {
      return {
        reason: `Allot has runs the executor confirmed on node ${slice.node}'s GPUs; the job is adopted once they end.`,
      };
    }
  }
  const startedAt = new Date(Math.min(Date.parse(running.startedAt), now.getTime()));
  return { placement: running.placement, startedAt, undone };
}

/**
 * Writes an adoption: undoes the unconfirmed starts, records the job's run as confirmed, and a
 * start decision that says it was adopted (the job page's "why").
 */
export async function adoptRun(
  tx: Tx,
  adoption: Adoption,
  run: { jobId: string; clusterId: string; budgetId: string; gpus: number; isAllocated: boolean },
  budgetPath: string,
  protectedUntil: Date,
  now: Date,
): Promise<void> {
  if (adoption.undone.length > 0) {
    await tx.run.updateMany({
      where: { id: { in: adoption.undone.map((entry) => entry.id) } },
      data: { endedAt: now, endReason: "failed", stopAckedAt: now },
    });
    await tx.job.updateMany({
      where: { id: { in: adoption.undone.map((entry) => entry.jobId) }, state: "running" },
      data: { state: "pending" },
    });
  }
  const created = await tx.run.create({
    data: {
      ...run,
      placement: adoption.placement,
      startedAt: adoption.startedAt,
      protectedUntil,
      startAckedAt: now,
    },
    select: { id: true },
  });
  const toSec = (at: Date) => at.getTime() / 1000;
  const reason: StartReason = {
    rule: "start-adopted",
    atSec: toSec(adoption.startedAt),
    adoptedAtSec: toSec(now),
    budget: { id: run.budgetId, path: budgetPath, rank: null, usageRatio: null },
    gpus: run.gpus,
    nodes: adoption.placement.map((slice) => slice.node),
    isAllocated: run.isAllocated,
    protectedUntilSec: toSec(protectedUntil),
  };
  await tx.decision.create({
    data: {
      clusterId: run.clusterId,
      jobId: run.jobId,
      runId: created.id,
      kind: "start",
      at: now,
      reason: reason as unknown as Prisma.InputJsonValue,
    },
  });
}
