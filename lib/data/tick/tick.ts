// The tick (docs/architecture.md, docs/decisions/040-live-scheduling.md): per cluster, load the
// state, run the engine's pass, write its decisions, runs and reasons in one transaction
// under a Postgres advisory lock, so several replicas never decide twice for one cluster. The
// same transaction refreshes the hourly roll-ups of the hours since the previous tick.
import "server-only";
import { randomUUID } from "node:crypto";
import { runSchedulePass, type SchedulePassResult } from "../../engine";
import { getDb } from "../db/app-db";
import { Prisma } from "../../generated/prisma/client";
import { getLogger } from "../../log/logger";
import { getMetrics } from "../../metrics/registry";
import type { Db } from "../db/client";
import { getNow } from "../db/clock";
import { refreshClusterRollups } from "./rollups";
import { fromSec, loadTickState, toSec, type TickState, type Tx } from "./load-state";
import { storedLevelFairShare, type RankingRow } from "./ranking";
import { UnusableTreeError } from "./rooted-rows";
import { noteLocalTick } from "./tick-cache";

/** First key of every cluster lock (the second is the cluster name's hash). */
const LOCK_CLASS = 7731;
const TRANSACTION = { timeout: 120_000, maxWait: 60_000 } as const;

export type TickResult = {
  cluster: string;
  /** Another replica (or tick) held the cluster's lock, or the tree cannot be used: nothing was decided here. */
  isSkipped: boolean;
  /** Why a tick that held the lock decided nothing (an unusable budget tree). */
  skipReason?: string;
  atSec: number;
  starts: number;
  preemptions: number;
  /** Wait decisions written (only when a job's rule changed). */
  waitDecisions: number;
  /** Pending jobs whose stored reason changed and was rewritten (places are updated apart). */
  reasonsUpdated: number;
  pending: number;
  drainsCompleted: number;
  /** Decisions written, by kind and the rule that decided (empty when skipped). */
  decisionCounts: DecisionCount[];
  durationMs: number;
};

export type DecisionCount = { kind: string; rule: string; count: number };

export type TickOptions = {
  db?: Db;
  now?: Date;
  /** Tests: throw after this stage's writes, inside the transaction. */
  failAfter?: "preemptions" | "starts" | "waiting";
};

/** Takes the cluster's lock if free; false when another transaction holds it. */
export async function tryLockCluster(tx: Tx, clusterName: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ locked: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${clusterName})) AS locked`;
  return rows[0]?.locked === true;
}

/** Waits for the cluster's lock (event ingestion and cancels must not race a tick). */
export async function lockCluster(tx: Tx, clusterName: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${clusterName}))::text`;
}

/**
 * One scheduling pass of one cluster, committed atomically (or not at all); counted in the
 * metrics and logged once (a pass another replica held the lock for only at debug level).
 */
export async function runTick(clusterName: string, options: TickOptions = {}): Promise<TickResult> {
  const metrics = getMetrics();
  const log = getLogger();
  let result: TickResult;
  try {
    result = await runTickOnce(clusterName, options);
  } catch (error) {
    metrics.ticks.inc({ cluster: clusterName, outcome: "failed" });
    log.error({ cluster: clusterName, err: error }, "tick failed");
    throw error;
  }
  const cluster = clusterName;
  const fields = {
    cluster,
    durationMs: result.durationMs,
    starts: result.starts,
    preemptions: result.preemptions,
    drainsCompleted: result.drainsCompleted,
    pending: result.pending,
  };
  if (result.skipReason) {
    metrics.ticks.inc({ cluster, outcome: "unusable_tree" });
    log.warn({ ...fields, skipped: "unusable_tree", skipReason: result.skipReason }, "tick");
  } else if (result.isSkipped) {
    metrics.ticks.inc({ cluster, outcome: "locked" });
    log.debug({ ...fields, skipped: "locked" }, "tick");
  } else {
    metrics.ticks.inc({ cluster, outcome: "ran" });
    metrics.tickDuration.observe({ cluster }, result.durationMs / 1000);
    metrics.preemptions.inc({ cluster }, result.preemptions);
    metrics.drainsCompleted.inc({ cluster }, result.drainsCompleted);
    for (const { kind, rule, count } of result.decisionCounts) {
      metrics.decisions.inc({ cluster, kind, rule }, count);
    }
    // A pass that changed nothing, every few seconds per cluster, would drown the log.
    const isQuiet = result.starts + result.preemptions + result.drainsCompleted === 0;
    log[isQuiet ? "debug" : "info"](fields, "tick");
  }
  return result;
}

async function runTickOnce(clusterName: string, options: TickOptions): Promise<TickResult> {
  const db = options.db ?? getDb();
  const now = options.now ?? (await getNow(db));
  const startedMs = performance.now();
  const empty = {
    starts: 0,
    preemptions: 0,
    waitDecisions: 0,
    reasonsUpdated: 0,
    pending: 0,
    drainsCompleted: 0,
    decisionCounts: [],
  };
  let counts;
  try {
    counts = await db.$transaction(async (tx) => {
      if (!(await tryLockCluster(tx, clusterName))) return null;
      const state = await loadTickState(tx, clusterName, now);
      const result = runSchedulePass({
        cluster: state.spec,
        nowSec: toSec(now),
        tree: state.tree,
        leafUsage: state.leafUsage,
        runs: state.runs,
        pending: state.pending,
      });
      return writePass(tx, state, result, now, options.failAfter);
    }, TRANSACTION);
    if (counts !== null) noteLocalTick();
  } catch (error) {
    if (!(error instanceof UnusableTreeError)) throw error;
    // Skip and report (runTick logs it): the runs keep running, nothing starts or stops until
    // it is repaired.
    return {
      cluster: clusterName,
      isSkipped: true,
      skipReason: error.message,
      atSec: toSec(now),
      ...empty,
      durationMs: Math.round(performance.now() - startedMs),
    };
  }
  return {
    cluster: clusterName,
    isSkipped: counts === null,
    atSec: toSec(now),
    ...(counts ?? empty),
    durationMs: Math.round(performance.now() - startedMs),
  };
}

type DecisionRow = Prisma.DecisionCreateManyInput;

function fail(stage: TickOptions["failAfter"], at: TickOptions["failAfter"]): void {
  if (stage === at) throw new Error(`Injected failure after ${at}.`);
}

async function writePass(
  tx: Tx,
  state: TickState,
  result: SchedulePassResult,
  now: Date,
  failAfter: TickOptions["failAfter"],
): Promise<Omit<TickResult, "cluster" | "isSkipped" | "atSec" | "durationMs">> {
  const { clusterId } = state;
  const decisions: DecisionRow[] = [];
  const runById = new Map(state.runs.map((run) => [run.id, run]));
  const nowSec = toSec(now);

  for (const preemption of result.preemptions) {
    const run = runById.get(preemption.runId);
    const endReason = preemption.reason.rule === "preempt-node-down" ? "node_down" : "preempted";
    await tx.run.updateMany({
      where: { id: preemption.runId, endedAt: null },
      data: { endedAt: now, endReason },
    });
    const ranSec = run ? Math.max(0, nowSec - run.startSec) : 0;
    const remaining = run?.remainingWorkSec ?? null;
    await tx.job.update({
      where: { id: preemption.jobId },
      data:
        preemption.outcome === "requeued"
          ? {
              state: "pending",
              remainingWorkSec:
                remaining === null ? null : Math.max(1, Math.round(remaining - ranSec)),
              waitRule: null,
              waitKey: null,
            }
          : { state: "preempted", endedAt: now },
    });
    decisions.push({
      clusterId,
      jobId: preemption.jobId,
      runId: preemption.runId,
      kind: "preempt",
      at: now,
      reason: preemption.reason as Prisma.InputJsonValue,
    });
  }
  fail(failAfter, "preemptions");

  if (result.starts.length > 0) {
    const runs = result.starts.map((start) => ({
      id: randomUUID(),
      jobId: start.jobId,
      clusterId,
      budgetId: start.budgetId,
      gpus: start.gpus,
      placement: start.placement,
      isAllocated: start.isAllocated,
      startedAt: now,
      protectedUntil: fromSec(start.protectedUntilSec),
    }));
    await tx.run.createMany({ data: runs });
    await tx.job.updateMany({
      where: { id: { in: result.starts.map((start) => start.jobId) }, state: "pending" },
      data: {
        state: "running",
        waitReason: Prisma.DbNull,
        waitRule: null,
        waitKey: null,
        queuePosition: null,
      },
    });
    await tx.job.updateMany({
      where: { id: { in: result.starts.map((start) => start.jobId) }, firstStartedAt: null },
      data: { firstStartedAt: now },
    });
    result.starts.forEach((start, index) =>
      decisions.push({
        clusterId,
        jobId: start.jobId,
        runId: runs[index]!.id,
        kind: "start",
        at: now,
        reason: start.reason as Prisma.InputJsonValue,
      }),
    );
  }
  fail(failAfter, "starts");

  const pendingById = new Map(state.pending.map((job) => [job.id, job]));
  let position = 0;
  const reasonRows = [];
  const placeRows = [];
  for (const wait of result.waiting) {
    const place = wait.isError ? null : (position += 1);
    const key = waitKeyOf(wait.reason);
    const job = pendingById.get(wait.jobId);
    if (job?.waitKey !== key) {
      reasonRows.push({ id: wait.jobId, reason: wait.reason, rule: wait.reason.rule, key, place });
    } else if (job.queuePosition !== place) {
      placeRows.push({ id: wait.jobId, place });
    }
  }
  // Reasons are JSON and costly to rewrite; places shift whenever a job ahead leaves.
  if (reasonRows.length > 0) {
    await tx.$executeRaw`
      UPDATE jobs AS j
         SET "waitReason" = v.reason, "waitRule" = v.rule, "waitKey" = v.key,
             "queuePosition" = v.place
        FROM jsonb_to_recordset(${JSON.stringify(reasonRows)}::jsonb)
             AS v(id text, reason jsonb, rule text, key text, place int)
       WHERE j.id = v.id`;
  }
  if (placeRows.length > 0) {
    await tx.$executeRaw`
      UPDATE jobs AS j SET "queuePosition" = v.place
        FROM jsonb_to_recordset(${JSON.stringify(placeRows)}::jsonb) AS v(id text, place int)
       WHERE j.id = v.id`;
  }
  let waitDecisions = 0;
  for (const wait of result.waiting) {
    if (pendingById.get(wait.jobId)?.waitRule === wait.reason.rule) continue;
    waitDecisions += 1;
    decisions.push({
      clusterId,
      jobId: wait.jobId,
      kind: "wait",
      at: now,
      reason: wait.reason as Prisma.InputJsonValue,
    });
  }
  fail(failAfter, "waiting");

  let drainsCompleted = 0;
  for (const drain of result.drainsCompleted) {
    if (state.drainedNodes.has(drain.node)) continue;
    const marked = await tx.clusterNode.updateMany({
      where: { clusterId, index: drain.node, health: "draining", drainedAt: null },
      data: { drainedAt: now },
    });
    if (marked.count === 0) continue;
    drainsCompleted += 1;
    decisions.push({
      clusterId,
      kind: "drain",
      at: now,
      reason: drain.reason as Prisma.InputJsonValue,
    });
  }
  if (decisions.length > 0) await tx.decision.createMany({ data: decisions });

  const ranking: RankingRow[] = result.ranking.rows.map((row, index) => ({
    id: row.id,
    path: row.path,
    name: row.name,
    depth: state.tree.nodes[index]?.depth ?? 0,
    isLeaf: row.isLeaf,
    effectiveShare: row.effectiveShare,
    usageGpuSeconds: row.usageGpuSeconds,
    usageRatio: row.usageRatio,
    rank: row.rank,
    parentId: state.tree.nodes[index]?.parentId ?? null,
    weight: row.weight,
    fraction: row.fraction,
    levelFairShare: storedLevelFairShare(row.levelFairShare),
  }));
  const previous = await tx.cluster.findUnique({
    where: { id: clusterId },
    select: { tickedAt: true },
  });
  await refreshClusterRollups(tx, clusterId, previous?.tickedAt ?? null, now);
  await tx.cluster.update({ where: { id: clusterId }, data: { tickedAt: now, ranking } });
  return {
    starts: result.starts.length,
    preemptions: result.preemptions.length,
    waitDecisions,
    reasonsUpdated: reasonRows.length,
    pending: result.waiting.length,
    drainsCompleted,
    decisionCounts: countDecisions(decisions),
  };
}

function countDecisions(decisions: readonly DecisionRow[]): DecisionCount[] {
  const counts = new Map<string, DecisionCount>();
  for (const decision of decisions) {
    const rule = (decision.reason as { rule?: unknown } | null)?.rule;
    const entry = { kind: decision.kind, rule: typeof rule === "string" ? rule : "none" };
    const key = `${entry.kind}|${entry.rule}`;
    const count = counts.get(key) ?? { ...entry, count: 0 };
    count.count += 1;
    counts.set(key, count);
  }
  return [...counts.values()];
}

/** Fields that move on every pass without changing what a wait sentence says. */
const DRIFTING_FIELDS = new Set(["atSec", "usageRatio"]);

/**
 * What must change for a job's stored reason to be rewritten: its rule and the numbers its
 * sentence shows (FNV-1a of the reason's JSON without the moment of the pass and
 * the budgets' usage ratios, which move continuously and are shown from the ranking instead:
 * currentUsageOf in lib/sentences/current-usage.ts).
 */
function waitKeyOf(reason: { rule: string }): string {
  const text = JSON.stringify(reason, (key, value: unknown) =>
    DRIFTING_FIELDS.has(key) ? undefined : value,
  );
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return `${reason.rule}|${(hash >>> 0).toString(36)}`;
}

/** Ticks every cluster once (the timer). */
export async function tickAllClusters(options: TickOptions = {}): Promise<TickResult[]> {
  const db = options.db ?? getDb();
  const clusters = await db.cluster.findMany({ select: { name: true }, orderBy: { name: "asc" } });
  const results: TickResult[] = [];
  // One cluster's failure is logged and the others still tick.
  for (const cluster of clusters) {
    try {
      results.push(await runTick(cluster.name, { ...options, db }));
    } catch {
      // runTick logged it.
    }
  }
  return results;
}
