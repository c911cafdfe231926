// The live views of a cluster: the overview of all clusters and one cluster's ranked queue
// (GET /api/v1/clusters/{name}/queue and the page that polls it).
import "server-only";
import { getDb } from "./db/app-db";
import { AppError } from "../errors";
import { splitGpus, type GpuSplit, type NodeSlice } from "../engine";
import {
  estimateLiveStart,
  explainLive,
  hostsOf,
  nodeNamerOf,
  summarizeLive,
} from "../sentences/live";
import { currentUsageOf } from "../sentences/current-usage";
import { getNow } from "./db/clock";
import { toSec, type Tx } from "./tick/load-state";
import { orderRankingLikeFairTree, readRanking, type RankingRow } from "./tick/ranking";
import { createTickCache, createVersionMemo } from "./tick/tick-cache";
import { AWAITING_NEXT_PASS } from "../sentences/awaiting-next-pass";

/** How old a live answer may be when no tick moved (acknowledgements between ticks). */
const LIVE_MAX_AGE_MS = 2000;
/** How long readers share one read of the clusters' tick times (another replica's tick shows). */
const VERSION_REUSE_MS = 500;
/**
 * A queue's reads see one snapshot: a tick committing between them would pair its wait reasons
 * and places with the previous tick's ranking. PostgreSQL and the embedded PGlite both take it;
 * PGlite runs one transaction at a time, so the snapshot may wait for a tick: as long as a tick
 * waits for its own turn (lib/data/tick/tick.ts).
 */
const SNAPSHOT = { isolationLevel: "RepeatableRead", timeout: 20_000, maxWait: 60_000 } as const;

/** A cluster's load; the GPU parts (see `GpuSplit`) add up to `gpus`. */
export type ClusterLoad = GpuSplit & {
  name: string;
  gpuType: string;
  /** Who runs its jobs: the built-in driver, or SLURM through the bridge (jobs come from sbatch). */
  executor: "builtin" | "slurm";
  nodes: number;
  gpus: number;
  drainingNodes: number;
  downNodes: number;
  pendingJobs: number;
  pendingGpus: number;
  tickedAtSec: number | null;
};

const loadsCache = createTickCache<ClusterLoad[]>(LIVE_MAX_AGE_MS);
/** A queue and its JSON text, made together: the API serialises it once, not once per reader. */
type QueueAnswer = { queue: ClusterQueue; json: string };
const queueCache = createTickCache<QueueAnswer>(LIVE_MAX_AGE_MS);
const versions = createVersionMemo(VERSION_REUSE_MS);

/**
 * The moments every cluster (or the one named) last ticked: the version of what the ticks
 * wrote; null for an unknown name. Read once per VERSION_REUSE_MS, and after each local tick.
 */
export function tickVersion(db: ReturnType<typeof getDb>, name?: string): Promise<string | null> {
  return versions.get(name ?? "", () => readTickVersion(db, name));
}

async function readTickVersion(
  db: ReturnType<typeof getDb>,
  name?: string,
): Promise<string | null> {
  const rows = await db.cluster.findMany({
    where: name === undefined ? {} : { name },
    select: { name: true, tickedAt: true },
    orderBy: { name: "asc" },
  });
  if (name !== undefined && rows.length === 0) return null;
  return rows.map((row) => `${row.name}@${row.tickedAt?.getTime() ?? "-"}`).join(",");
}

/**
 * Every cluster's load now: its GPUs split by node health and what runs there (parts that add
 * up to the cluster's GPUs), and the pending demand. Served from what the last ticks wrote
 * (lib/data/tick-cache.ts).
 */
export async function listClusterLoads(): Promise<ClusterLoad[]> {
  const version = (await tickVersion(getDb())) ?? "";
  return loadsCache.get("all", version, () => computeClusterLoads(getDb()));
}

/** The loads of every cluster, or of the one with id `clusterId`, read through `db` (a snapshot's too). */
async function computeClusterLoads(db: Tx, clusterId?: string): Promise<ClusterLoad[]> {
  const ofCluster = clusterId === undefined ? {} : { clusterId };
  const [clusters, runs, pending] = await Promise.all([
    db.cluster.findMany({
      where: clusterId === undefined ? {} : { id: clusterId },
      select: {
        id: true,
        name: true,
        gpuType: true,
        executor: true,
        tickedAt: true,
        nodes: { select: { index: true, gpus: true, health: true } },
      },
      orderBy: { name: "asc" },
    }),
    db.run.findMany({
      where: { endedAt: null, ...ofCluster },
      select: { clusterId: true, placement: true, isAllocated: true },
    }),
    db.job.groupBy({
      by: ["clusterId"],
      where: { state: "pending", ...ofCluster },
      _sum: { gpus: true },
      _count: { _all: true },
    }),
  ]);
  return clusters.map((cluster) => {
    const split = splitGpus(
      cluster.nodes,
      runs
        .filter((run) => run.clusterId === cluster.id)
        .map((run) => ({ placement: run.placement as NodeSlice[], isAllocated: run.isAllocated })),
    );
    const waiting = pending.find((row) => row.clusterId === cluster.id);
    return {
      ...split,
      name: cluster.name,
      gpuType: cluster.gpuType,
      executor: cluster.executor,
      nodes: cluster.nodes.length,
      gpus: split.totalGpus,
      drainingNodes: cluster.nodes.filter((node) => node.health === "draining").length,
      downNodes: cluster.nodes.filter((node) => node.health === "down").length,
      pendingJobs: waiting?._count._all ?? 0,
      pendingGpus: waiting?._sum.gpus ?? 0,
      tickedAtSec: cluster.tickedAt ? toSec(cluster.tickedAt) : null,
    };
  });
}

export type QueuedJob = {
  jobId: string;
  /** The executor's id for the job (SLURM's job id); null for jobs submitted to Allot. */
  externalId: string | null;
  name: string;
  /** The owner, to mark "my jobs" (the queue is shared by every reader). */
  userId: string;
  userName: string;
  budgetPath: string;
  position: number | null;
  rank: number | null;
  usageRatio: number | null;
  priority: string;
  gpus: number;
  minRuntimeSec: number;
  /** Since it was submitted, or, requeued after a run, since that run ended. */
  waitingSec: number;
  rule: string | null;
  /** One short plain sentence that leads `sentence`. */
  summary: string;
  sentence: string;
  /** ISO 8601 instant by which the job is expected to start, when a bound is known; else null. */
  expectedStartAt: string | null;
  /** What would have to change for it to start, when no time bound is known; else null. */
  startNote: string | null;
};

export type RunningRun = {
  runId: string;
  jobId: string;
  /** The executor's id for the job (SLURM's job id); null for jobs submitted to Allot. */
  externalId: string | null;
  name: string;
  userId: string;
  userName: string;
  budgetPath: string;
  rank: number | null;
  gpus: number;
  nodes: number[];
  /** The executor's names for `nodes` (SLURM's NodeName, same order); null on a demo cluster. */
  hosts: string[] | null;
  isAllocated: boolean;
  startedSec: number;
  protectedUntilSec: number;
  isStartAcknowledged: boolean;
};

export type ClusterQueue = {
  cluster: ClusterLoad;
  nowSec: number;
  pendingTotal: number;
  pending: QueuedJob[];
  running: RunningRun[];
  /** Ranked leaf budgets on the cluster: ranks read "7 of N". */
  rankedBudgets: number;
  /** Leaves by rank (then path), with usage over the window. */
  budgets: (RankingRow & { usageGpuHours: number })[];
  /** Every node of the tree in the order Fair Tree walks it, with usage over the window. */
  tree: (RankingRow & { usageGpuHours: number })[];
  lookbackSec: number;
};

/**
 * One cluster's live queue: pending jobs in rank order with reasons, running runs, ranks.
 * Served from what the cluster's last tick wrote (lib/data/tick-cache.ts).
 */
export async function getClusterQueue(name: string): Promise<ClusterQueue> {
  return (await getQueueAnswer(name)).queue;
}

/** The same queue as JSON text, serialised once per answer rather than once per reader. */
export async function getClusterQueueJson(name: string): Promise<string> {
  return (await getQueueAnswer(name)).json;
}

async function getQueueAnswer(name: string): Promise<QueueAnswer> {
  const version = await tickVersion(getDb(), name);
  if (version === null) throw new AppError("not_found", `No cluster is named "${name}".`);
  return queueCache.get(name, version, async () => {
    const queue = await computeClusterQueue(name);
    return { queue, json: JSON.stringify(queue) };
  });
}

async function computeClusterQueue(name: string, limit = 300): Promise<ClusterQueue> {
  const db = getDb();
  const [rows, now] = await Promise.all([
    db.$transaction((tx) => readQueueRows(tx, name, limit), SNAPSHOT),
    getNow(db),
  ]);
  const { cluster, load, pendingTotal, pendingRows, runRows } = rows;
  const nowSec = toSec(now);
  const ranking = readRanking(cluster.ranking);
  const byId = new Map(ranking.map((row) => [row.id, row]));
  const withCurrentUsage = currentUsageOf(ranking);
  const rankedBudgets = ranking.filter((row) => row.isLeaf && row.rank !== null).length;
  const nodeName = nodeNamerOf(cluster.nodes);
  return {
    cluster: load,
    nowSec,
    pendingTotal,
    rankedBudgets,
    lookbackSec: cluster.lookbackSec,
    pending: pendingRows.map((job) => {
      const row = byId.get(job.budgetId);
      const rule = (job.waitReason as { rule?: string } | null)?.rule ?? null;
      return {
        jobId: job.id,
        externalId: job.externalId,
        name: job.name,
        userId: job.user.id,
        userName: job.user.name,
        budgetPath: row?.path ?? job.budgetId,
        position: job.queuePosition,
        rank: row?.rank ?? null,
        usageRatio: row?.usageRatio ?? null,
        priority: job.priority,
        gpus: job.gpus,
        minRuntimeSec: job.minRuntimeSec,
        waitingSec: Math.max(0, nowSec - toSec(job.runs[0]?.endedAt ?? job.submittedAt)),
        rule,
        summary: job.waitReason
          ? summarizeLive(job.waitReason, nowSec, {
              rankedBudgets,
              nodeName,
              ...(job.queuePosition !== null ? { jobsAhead: job.queuePosition - 1 } : {}),
            })
          : AWAITING_NEXT_PASS,
        sentence: job.waitReason
          ? explainLive(withCurrentUsage(job.waitReason), nowSec, nodeName)
          : AWAITING_NEXT_PASS,
        ...estimateLiveStart(job.waitReason, nowSec, nodeName),
      };
    }),
    running: runRows.map((run) => {
      const row = byId.get(run.budgetId);
      const nodes = (run.placement as NodeSlice[]).map((slice) => slice.node);
      return {
        runId: run.id,
        jobId: run.jobId,
        externalId: run.job.externalId,
        name: run.job.name,
        userId: run.job.user.id,
        userName: run.job.user.name,
        budgetPath: row?.path ?? run.budgetId,
        rank: row?.rank ?? null,
        gpus: run.gpus,
        nodes,
        hosts: hostsOf(nodes, nodeName),
        isAllocated: run.isAllocated,
        startedSec: toSec(run.startedAt),
        protectedUntilSec: toSec(run.protectedUntil),
        isStartAcknowledged: run.startAckedAt !== null,
      };
    }),
    budgets: ranking
      .filter((row) => row.isLeaf)
      .map((row) => ({ ...row, usageGpuHours: row.usageGpuSeconds / 3600 }))
      .sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9) || a.path.localeCompare(b.path)),
    tree: orderRankingLikeFairTree(ranking).map((row) => ({
      ...row,
      usageGpuHours: row.usageGpuSeconds / 3600,
    })),
  };
}

/**
 * What a queue shows of one cluster, read in one snapshot (the caller's transaction). Its load
 * is read here too, not taken from listClusterLoads' cache, so that its counts agree with the rows.
 */
async function readQueueRows(tx: Tx, name: string, limit: number) {
  const cluster = await tx.cluster.findUnique({
    where: { name },
    select: {
      id: true,
      ranking: true,
      lookbackSec: true,
      nodes: { select: { index: true, hostname: true } },
    },
  });
  if (!cluster) throw new AppError("not_found", `No cluster is named "${name}".`);
  const [[load], pendingRows, runRows] = await Promise.all([
    computeClusterLoads(tx, cluster.id),
    tx.job.findMany({
      where: { clusterId: cluster.id, state: "pending" },
      orderBy: [{ queuePosition: { sort: "asc", nulls: "first" } }, { submittedAt: "asc" }],
      take: limit,
      include: {
        user: { select: { id: true, name: true } },
        // A requeued job waits again from its last run's end.
        runs: {
          where: { endedAt: { not: null } },
          select: { endedAt: true },
          orderBy: { endedAt: "desc" },
          take: 1,
        },
      },
    }),
    tx.run.findMany({
      where: { clusterId: cluster.id, endedAt: null },
      orderBy: [{ startedAt: "desc" }, { id: "asc" }],
      take: limit,
      include: {
        job: {
          select: { name: true, externalId: true, user: { select: { id: true, name: true } } },
        },
      },
    }),
  ]);
  // Never missing: the snapshot that found the cluster counts its load.
  if (!load) throw new AppError("not_found", `No cluster is named "${name}".`);
  // Every pending job, where the rows stop at `limit`: the load counts them already.
  return { cluster, load, pendingTotal: load.pendingJobs, pendingRows, runRows };
}
