// The nodes of one cluster for the nodes page: health and who set it, what runs there (and,
// for a draining node, when it will be empty), the nodes' history and the drains that finished
// without a human.
import "server-only";
import { getDb } from "./db/app-db";
import { AppError } from "../errors";
import type { NodeSlice } from "../engine";
import type { Actor } from "../sentences/history";
import { getNow } from "./db/clock";
import { toSec } from "./tick/load-state";

/** A run on a node: its job (to link to) and when its protected period ends. */
export type NodeRunView = {
  runId: string;
  jobId: string;
  jobName: string;
  gpus: number;
  protectedUntilSec: number;
};

/** The last change of a node's health: who, when, why. */
export type HealthChangeView = {
  node: number;
  health: "healthy" | "draining" | "down";
  atSec: number;
  actor: Actor;
  reason: string | null;
};

export type NodeView = {
  index: number;
  /** The executor's name for the node (SLURM's NodeName); null on a demo cluster. */
  hostname: string | null;
  gpus: number;
  usedGpus: number;
  runs: NodeRunView[];
  health: "healthy" | "draining" | "down";
  /**
   * When the node entered its state. For a node with no recorded change (`isUnchangedOnRecord`)
   * nobody knows: it is when the cluster's records begin, and the node was so at least that long.
   */
  healthChangedSec: number;
  /** No change of this node's health is recorded: it has been in its state since records began. */
  isUnchangedOnRecord: boolean;
  /** The change that put the node in its state; null when it was healthy all along. */
  lastChange: HealthChangeView | null;
  /** Set when a draining node emptied itself (an automated remediation). */
  drainedSec: number | null;
  /**
   * A draining node with runs: when the last of them may be preempted (its protected period
   * ends; runs past it are preempted at once). Null otherwise.
   */
  emptyBySec: number | null;
};

/** A drain whose emptying finished without a human, and who started it (not a person). */
export type DrainView = { atSec: number; node: number; startedBy: HealthChangeView | null };

/** An entry of the nodes' history: a health change, or a drain that finished (the engine). */
export type NodeHistoryEntry =
  ({ kind: "health" } & HealthChangeView) | { kind: "drained"; node: number; atSec: number };

export type ClusterNodes = {
  nodes: NodeView[];
  drains: DrainView[];
  history: NodeHistoryEntry[];
  nowSec: number;
};

export const NODE_HISTORY_LIMIT = 100;

type ChangeRow = {
  nodeIndex: number;
  health: "healthy" | "draining" | "down";
  at: Date;
  source: "person" | "executor" | "demo_driver" | null;
  reason: string | null;
  user: { name: string } | null;
};

function toChangeView(row: ChangeRow): HealthChangeView {
  return {
    node: row.nodeIndex,
    health: row.health,
    atSec: toSec(row.at),
    actor: { source: row.source, name: row.user?.name ?? null },
    reason: row.reason,
  };
}

/** Runs on each node, from the open runs' placements. */
function runsByNode(
  runs: {
    id: string;
    gpus: number;
    placement: unknown;
    protectedUntil: Date;
    job: { id: string; name: string };
  }[],
): Map<number, { gpus: number; runs: NodeRunView[] }> {
  const byNode = new Map<number, { gpus: number; runs: NodeRunView[] }>();
  for (const run of runs) {
    for (const slice of run.placement as NodeSlice[]) {
      const entry = byNode.get(slice.node) ?? { gpus: 0, runs: [] };
      entry.gpus += slice.gpus;
      entry.runs.push({
        runId: run.id,
        jobId: run.job.id,
        jobName: run.job.name,
        gpus: slice.gpus,
        protectedUntilSec: toSec(run.protectedUntil),
      });
      byNode.set(slice.node, entry);
    }
  }
  return byNode;
}

/**
 * The drain that a completed drain belongs to: the node's last change to draining at or
 * before it. Drains a person started are not "without a human", so they are left out.
 */
function automatedDrains(
  completions: { at: Date; node: number }[],
  changes: HealthChangeView[],
): DrainView[] {
  return completions.flatMap((completion) => {
    const atSec = toSec(completion.at);
    const start =
      changes.find(
        (change) =>
          change.node === completion.node && change.health === "draining" && change.atSec <= atSec,
      ) ?? null;
    if (start?.actor.source === "person") return [];
    return [{ atSec, node: completion.node, startedBy: start }];
  });
}

export async function listClusterNodes(clusterName: string): Promise<ClusterNodes> {
  const db = getDb();
  const cluster = await db.cluster.findUnique({
    where: { name: clusterName },
    select: { id: true, nodes: { orderBy: { index: "asc" } } },
  });
  if (!cluster) throw new AppError("not_found", `No cluster is named "${clusterName}".`);
  const [runs, completions, changeRows, lastRows, firstJob, firstChange, now] = await Promise.all([
    db.run.findMany({
      where: { clusterId: cluster.id, endedAt: null },
      select: {
        id: true,
        gpus: true,
        placement: true,
        protectedUntil: true,
        job: { select: { id: true, name: true } },
      },
      orderBy: { protectedUntil: "asc" },
    }),
    db.decision.findMany({
      where: { clusterId: cluster.id, kind: "drain" },
      orderBy: { at: "desc" },
      take: 50,
      select: { at: true, reason: true },
    }),
    db.nodeHealthChange.findMany({
      where: { clusterId: cluster.id },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      take: NODE_HISTORY_LIMIT,
      select: {
        nodeIndex: true,
        health: true,
        at: true,
        source: true,
        reason: true,
        user: { select: { name: true } },
      },
    }),
    // Each node's latest change, however long ago.
    db.nodeHealthChange.findMany({
      where: { clusterId: cluster.id },
      distinct: ["nodeIndex"],
      orderBy: [{ nodeIndex: "asc" }, { at: "desc" }, { id: "desc" }],
      select: {
        nodeIndex: true,
        health: true,
        at: true,
        source: true,
        reason: true,
        user: { select: { name: true } },
      },
    }),
    // Where the cluster's records begin: its first job or its first change of a node's health.
    db.job.findFirst({
      where: { clusterId: cluster.id },
      orderBy: { submittedAt: "asc" },
      select: { submittedAt: true },
    }),
    db.nodeHealthChange.findFirst({
      where: { clusterId: cluster.id },
      orderBy: { at: "asc" },
      select: { at: true },
    }),
    getNow(db),
  ]);
  const nowSec = toSec(now);
  const recordsBeganSec = Math.min(
    ...[firstJob?.submittedAt, firstChange?.at].flatMap((at) => (at ? [toSec(at)] : [])),
    ...cluster.nodes.map((node) => toSec(node.healthChangedAt)),
  );
  const used = runsByNode(runs);
  const changes = changeRows.map(toChangeView);
  const lastByNode = new Map(lastRows.map((row) => [row.nodeIndex, toChangeView(row)]));
  const drained = completions.map((row) => ({
    at: row.at,
    node: (row.reason as { node: number }).node,
  }));
  // Newest first; at one moment a node empties after it was set draining, so drains come first
  // (the sort is stable).
  const history: NodeHistoryEntry[] = [
    ...drained.map((row) => ({ kind: "drained" as const, node: row.node, atSec: toSec(row.at) })),
    ...changes.map((change) => ({ kind: "health" as const, ...change })),
  ]
    .sort((a, b) => b.atSec - a.atSec)
    .slice(0, NODE_HISTORY_LIMIT);
  return {
    nowSec,
    drains: automatedDrains(drained, changes),
    history,
    nodes: cluster.nodes.map((node) => {
      const onNode = used.get(node.index);
      const last = lastByNode.get(node.index) ?? null;
      // A node row is made when the node is registered (the demo's at seed time, after its
      // seeded history): with no change on record, its own time would be a made-up duration.
      const isUnchangedOnRecord = !lastByNode.has(node.index);
      const healthChangedSec = isUnchangedOnRecord ? recordsBeganSec : toSec(node.healthChangedAt);
      const nodeRuns = onNode?.runs ?? [];
      return {
        index: node.index,
        hostname: node.hostname,
        gpus: node.gpus,
        usedGpus: onNode?.gpus ?? 0,
        runs: nodeRuns,
        health: node.health,
        healthChangedSec,
        isUnchangedOnRecord,
        // The last recorded change is the one in force only if it is as recent as the state.
        lastChange: last && last.health === node.health ? last : null,
        drainedSec: node.drainedAt && nodeRuns.length === 0 ? toSec(node.drainedAt) : null,
        emptyBySec:
          node.health === "draining" && nodeRuns.length > 0
            ? Math.max(nowSec, ...nodeRuns.map((run) => run.protectedUntilSec))
            : null,
      };
    }),
  };
}
