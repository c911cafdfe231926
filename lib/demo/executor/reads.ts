// What the built-in executor (lib/demo/executor/executor.ts) reads besides the plan: the demo org, its
// queue length, its runs' progress and node health. It writes only through ingestEvents and
// submitJobs, the same paths as an external executor and the API.
import "server-only";
import { getDb } from "../../data/db/app-db";
import type { DemoLeaf } from "./arrivals";
import { loadBudgetTree } from "../../data/tick/load-state";

export type DriverCluster = { name: string; gpuType: string; nodes: number; gpusPerNode: number };

/** The clusters the demo executor acts for: never one a SLURM bridge drives. */
export async function listDriverClusters(): Promise<DriverCluster[]> {
  const rows = await getDb().cluster.findMany({
    where: { executor: "builtin" },
    select: { name: true, gpuType: true, nodes: { select: { gpus: true } } },
    orderBy: { name: "asc" },
  });
  return rows.map((row) => ({
    name: row.name,
    gpuType: row.gpuType,
    nodes: row.nodes.length,
    gpusPerNode: Math.max(1, ...row.nodes.map((node) => node.gpus)),
  }));
}

/** Leaves of the tree with their members (the people who may charge them). */
export async function listDemoLeaves(): Promise<DemoLeaf[]> {
  const db = getDb();
  const [tree, members] = await Promise.all([
    loadBudgetTree(db),
    db.budgetMember.findMany({
      select: { nodeId: true, userId: true },
      orderBy: { userId: "asc" },
    }),
  ]);
  return tree.nodes
    .filter((node) => node.isLeaf)
    .map((node) => ({
      id: node.id,
      path: node.path,
      memberIds: members.filter((m) => m.nodeId === node.id).map((m) => m.userId),
    }));
}

/** Pending jobs, and open ones (pending or running), of a cluster. */
export async function countJobs(cluster: string): Promise<{ pending: number; open: number }> {
  const db = getDb();
  const [pending, open] = await Promise.all([
    db.job.count({ where: { cluster: { name: cluster }, state: "pending" } }),
    db.job.count({ where: { cluster: { name: cluster }, state: { in: ["pending", "running"] } } }),
  ]);
  return { pending, open };
}

/** Acknowledged open runs whose job's known work is done by `now`. */
export async function listFinishedRuns(cluster: string, now: Date): Promise<string[]> {
  const runs = await getDb().run.findMany({
    where: { cluster: { name: cluster }, endedAt: null, startAckedAt: { not: null } },
    select: { id: true, startedAt: true, job: { select: { remainingWorkSec: true } } },
  });
  return runs
    .filter(
      (run) =>
        run.job.remainingWorkSec !== null &&
        run.startedAt.getTime() + run.job.remainingWorkSec * 1000 <= now.getTime(),
    )
    .map((run) => run.id);
}

/**
 * Each node's health, and whether a person set it (an admin's drain or mark down): the demo
 * executor brings back only the nodes it took out itself.
 */
export async function listNodeHealth(cluster: string) {
  const db = getDb();
  const nodes = await db.clusterNode.findMany({
    where: { cluster: { name: cluster } },
    select: { index: true, health: true, healthChangedAt: true, drainedAt: true },
    orderBy: { index: "asc" },
  });
  // Who set a node matters only for one that is not healthy: most rounds ask about none.
  const unhealthy = nodes.filter((node) => node.health !== "healthy").map((node) => node.index);
  const lastChanges =
    unhealthy.length === 0
      ? []
      : await db.nodeHealthChange.findMany({
          where: { cluster: { name: cluster }, nodeIndex: { in: unhealthy } },
          distinct: ["nodeIndex"],
          orderBy: [{ nodeIndex: "asc" }, { at: "desc" }, { id: "desc" }],
          select: { nodeIndex: true, source: true },
        });
  const setByPerson = new Set(
    lastChanges.filter((change) => change.source === "person").map((change) => change.nodeIndex),
  );
  return nodes.map((node) => ({ ...node, isSetByPerson: setByPerson.has(node.index) }));
}
