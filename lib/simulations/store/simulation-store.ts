// Simulation rows: written by route handlers (through lib/simulations/store/simulations.ts) and
// by the worker process (lib/simulations/worker/sim-worker.ts), which has its own client; hence
// a `db` argument instead of lib/data/db/app-db.ts's server-only getDb().
import type { Prisma } from "../../generated/prisma/client";
import { validateBudgetTree } from "../../engine/budget-tree";
import type { TreeScenarioCluster, TreeScenarioNode } from "../tree-scenario";
import type { Db } from "../../data/db/client";
import { AppError } from "../../errors";

export type SimulationInputs = {
  id: string;
  source: string;
  options: Prisma.JsonValue;
  scenarioGz: Uint8Array<ArrayBuffer> | null;
  /** The draft a what-if replays (source "what-if"); null otherwise. */
  draftId: string | null;
};

const INPUTS = { id: true, source: true, options: true, scenarioGz: true, draftId: true } as const;

export type NewSimulation = {
  userId: string;
  name: string;
  source: string;
  options: Prisma.InputJsonValue;
  scenarioGz?: Uint8Array<ArrayBuffer> | undefined;
};

/** Stores a queued simulation; returns its id. */
export async function insertSimulation(
  db: Pick<Db, "simulation">,
  input: NewSimulation,
): Promise<string> {
  const row = await db.simulation.create({
    data: {
      userId: input.userId,
      name: input.name,
      source: input.source,
      options: input.options,
      ...(input.scenarioGz ? { scenarioGz: input.scenarioGz } : {}),
    },
    select: { id: true },
  });
  return row.id;
}

/** Marks a queued simulation running and returns its inputs; null if it is not queued. */
export async function claimSimulation(db: Db, id: string): Promise<SimulationInputs | null> {
  const claimed = await db.simulation.updateMany({
    where: { id, status: "queued" },
    data: { status: "running", startedAt: new Date(), progress: 0, phase: "starting" },
  });
  if (claimed.count === 0) return null;
  return db.simulation.findUnique({ where: { id }, select: INPUTS });
}

/** Claims the oldest queued simulation (skipping rows another worker is claiming). */
export async function claimNextSimulation(db: Db): Promise<SimulationInputs | null> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE simulations SET status = 'running', "startedAt" = now(), progress = 0,
      phase = 'starting', "updatedAt" = now()
    WHERE id = (
      SELECT id FROM simulations WHERE status = 'queued'
      ORDER BY "createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  const id = rows[0]?.id;
  return id ? db.simulation.findUnique({ where: { id }, select: INPUTS }) : null;
}

/**
 * How many simulations and what-ifs of `userId` wait or run: every queued one (a worker takes
 * each in turn) and running ones whose worker wrote within `staleAfterMs`.
 */
export async function countWaitingOf(
  db: Pick<Db, "simulation">,
  userId: string,
  nowMs: number,
  staleAfterMs: number,
): Promise<number> {
  return db.simulation.count({
    where: {
      userId,
      OR: [
        { status: "queued" },
        { status: "running", updatedAt: { gt: new Date(nowMs - staleAfterMs) } },
      ],
    },
  });
}

/** Who may have how many runs waiting or running, and when a running one counts as stale. */
export type WaitingQuota = { maxWaiting: number; nowMs: number; staleAfterMs: number };

/**
 * Stores a run with `insert` when `userId` has fewer than `quota.maxWaiting` waiting or running
 * (429 otherwise), in one transaction that locks the person's row first: parallel requests count
 * one after the other, so at most `maxWaiting` get in.
 */
export async function insertWithinQuota(
  db: Db,
  userId: string,
  quota: WaitingQuota,
  insert: (tx: Prisma.TransactionClient) => Promise<string>,
): Promise<string> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`;
    const waiting = await countWaitingOf(tx, userId, quota.nowMs, quota.staleAfterMs);
    if (waiting >= quota.maxWaiting) {
      throw new AppError(
        "too_many_requests",
        `You have ${waiting} simulations and what-ifs queued or running; one person may have ${quota.maxWaiting} at most: start this one when one of them has finished.`,
      );
    }
    return insert(tx);
  });
}

/** How many simulations workers are running now. */
export async function countRunningSimulations(db: Db): Promise<number> {
  return db.simulation.count({ where: { status: "running" } });
}

/** Progress of a running simulation (0 to 1) and what it is doing. */
export async function recordProgress(
  db: Db,
  id: string,
  progress: number,
  phase: string,
): Promise<void> {
  await db.simulation.updateMany({
    where: { id, status: "running" },
    data: { progress: Math.max(0, Math.min(1, progress)), phase },
  });
}

export type SimulationResults = {
  summary: Prisma.InputJsonValue;
  /** Left out by what-ifs, which keep their summary only. */
  reportGz?: Uint8Array<ArrayBuffer> | undefined;
  /** Left out by what-ifs, and when stored ahead with {@link storeSimulationTimeline}. */
  timelineGz?: Uint8Array<ArrayBuffer> | undefined;
};

/**
 * Stores a running simulation's timeline ahead of its other results, as soon as it is ready:
 * the last write, which marks the row done, then carries less. Nobody reads it before then.
 */
export async function storeSimulationTimeline(
  db: Db,
  id: string,
  timelineGz: Uint8Array<ArrayBuffer>,
): Promise<void> {
  await db.simulation.update({ where: { id }, data: { timelineGz } });
}

export async function completeSimulation(
  db: Db,
  id: string,
  results: SimulationResults,
): Promise<void> {
  await db.simulation.update({
    where: { id },
    data: {
      status: "done",
      progress: 1,
      phase: null,
      summaryJson: results.summary,
      reportGz: results.reportGz ?? null,
      ...(results.timelineGz ? { timelineGz: results.timelineGz } : {}),
      finishedAt: new Date(),
    },
  });
}

export async function failSimulation(db: Db, id: string, error: string): Promise<void> {
  await db.simulation.update({
    where: { id },
    data: { status: "failed", phase: null, error: error.slice(0, 4000), finishedAt: new Date() },
  });
}

/** The stored tree and clusters, for a generated workload on the organisation's own tree. */
export async function loadTreeForScenario(
  db: Db,
): Promise<{ nodes: TreeScenarioNode[]; clusters: TreeScenarioCluster[] }> {
  const [rows, clusters] = await Promise.all([
    db.budgetNode.findMany({
      where: { removedAt: null },
      select: { id: true, parentId: true, name: true, weight: true },
      orderBy: [{ createdAt: "asc" }, { name: "asc" }],
    }),
    db.cluster.findMany({
      select: { name: true, gpuType: true, nodes: { select: { gpus: true } } },
      orderBy: { name: "asc" },
    }),
  ]);
  const tree = validateBudgetTree(rows);
  if (!tree.ok) throw new Error(`The stored budget tree is invalid: ${tree.issues[0]?.message}`);
  return {
    nodes: tree.value.nodes.map(({ id, parentId, name, weight, path, isLeaf, effectiveShare }) => ({
      id,
      parentId,
      name,
      weight,
      path,
      isLeaf,
      effectiveShare,
    })),
    clusters: clusters
      .filter((cluster) => cluster.nodes.length > 0)
      .map((cluster) => ({
        name: cluster.name,
        gpuType: cluster.gpuType,
        nodes: cluster.nodes.length,
        gpus: cluster.nodes.reduce((sum, node) => sum + node.gpus, 0),
      })),
  };
}
