// The nodes of one cluster for the nodes page: health, what runs there, finished drains.
import "server-only";
import { getDb } from "../db";
import { AppError } from "../errors";
import type { NodeSlice } from "../engine";
import { explainLive } from "../live/explain";
import { getNow } from "./clock";
import { toSec } from "./live-state";

export type NodeView = {
  index: number;
  gpus: number;
  usedGpus: number;
  runs: number;
  health: "healthy" | "draining" | "down";
  healthChangedSec: number;
  /** Set when a draining node emptied itself (an automated remediation). */
  drainedSec: number | null;
};

export type DrainView = { atSec: number; node: number; sentence: string };

export async function listClusterNodes(
  clusterName: string,
): Promise<{ nodes: NodeView[]; drains: DrainView[]; nowSec: number }> {
  const db = getDb();
  const cluster = await db.cluster.findUnique({
    where: { name: clusterName },
    select: {
      id: true,
      nodes: { orderBy: { index: "asc" } },
    },
  });
  if (!cluster) throw new AppError("not_found", `No cluster is named "${clusterName}".`);
  const [runs, drains, now] = await Promise.all([
    db.run.findMany({
      where: { clusterId: cluster.id, endedAt: null },
      select: { placement: true },
    }),
    db.decision.findMany({
      where: { clusterId: cluster.id, kind: "drain" },
      orderBy: { at: "desc" },
      take: 50,
      select: { at: true, reason: true },
    }),
    getNow(db),
  ]);
  const used = new Map<number, { gpus: number; runs: number }>();
  for (const run of runs) {
    for (const slice of run.placement as NodeSlice[]) {
      const entry = used.get(slice.node) ?? { gpus: 0, runs: 0 };
      used.set(slice.node, { gpus: entry.gpus + slice.gpus, runs: entry.runs + 1 });
    }
  }
  const nowSec = toSec(now);
  return {
    nowSec,
    nodes: cluster.nodes.map((node) => ({
      index: node.index,
      gpus: node.gpus,
      usedGpus: used.get(node.index)?.gpus ?? 0,
      runs: used.get(node.index)?.runs ?? 0,
      health: node.health,
      healthChangedSec: toSec(node.healthChangedAt),
      drainedSec: node.drainedAt ? toSec(node.drainedAt) : null,
    })),
    drains: drains.map((drain) => ({
      atSec: toSec(drain.at),
      node: (drain.reason as { node: number }).node,
      sentence: explainLive(drain.reason, nowSec),
    })),
  };
}
