// Stores a simulated history (lib/demo/lab-history.ts) for the demo seed and the tests: jobs,
// runs, decisions and node health changes, with the simulation's ids and times translated to
// rows, then the hourly roll-ups of the whole range. One transaction: all or nothing.
import { randomUUID } from "node:crypto";
import { validateBudgetTree } from "../engine";
import type { Db } from "../data/db/client";
import { loadTreeEpochs, replaceClusterRollups } from "../data/tick/rollups";
import type { LabHistory } from "./lab-history";
import { computeHourlyRollups, type RollupNode } from "../reports/rollup";
import { insertRows, type BulkColumn } from "../data/db/bulk-insert";
import { dateNodeStates } from "./seed-node-states";
import { fromSec } from "../data/db/epoch";

const TIME_KEYS = new Set(["atSec", "protectedUntilSec", "victimStartSec", "readyAtSec"]);

export type HistoryCounts = {
  jobs: number;
  runs: number;
  decisions: number;
  nodeChanges: number;
  rollupRows: number;
};

type Ids = {
  offsetSec: number;
  budgetIdOf: Map<string, string>;
  jobIdOf: Map<string, string>;
  runIdOf: Map<string, string>;
};

/**
 * A simulation's reason with the database's ids and epoch times: budget refs name leaf ids,
 * jobs and runs their row ids, times are shifted by the history's start.
 */
function relocateReason(value: unknown, ids: Ids, key = ""): unknown {
  if (Array.isArray(value)) {
    return key === "preemptedRunIds"
      ? value.map((id) => ids.runIdOf.get(String(id)) ?? id)
      : value.map((item) => relocateReason(item, ids));
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    const isBudgetRef = entries.some(([name]) => name === "path");
    return Object.fromEntries(
      entries.map(([name, field]) => {
        if (name === "id" && isBudgetRef) {
          const path = (value as { path: string }).path;
          return [name, ids.budgetIdOf.get(path) ?? field];
        }
        if (name === "jobId") return [name, ids.jobIdOf.get(String(field)) ?? field];
        return [name, relocateReason(field, ids, name)];
      }),
    );
  }
  if (typeof value === "number" && TIME_KEYS.has(key)) return value + ids.offsetSec;
  return value;
}

const TS = "timestamp(3)";
const col = (name: string, type: string): BulkColumn => ({ name, type });
const JOB_COLUMNS = [
  col("id", "text"),
  col("clusterId", "text"),
  col("budgetId", "text"),
  col("userId", "text"),
  col("name", "text"),
  col("gpus", "integer"),
  col("minRuntimeSec", "integer"),
  col("isResumable", "boolean"),
  col("priority", '"Priority"'),
  col("jobClass", "text"),
  col("state", '"JobState"'),
  col("submittedAt", TS),
  col("firstStartedAt", TS),
  col("endedAt", TS),
  col("workSec", "integer"),
  col("remainingWorkSec", "integer"),
  col("updatedAt", TS),
];
const RUN_COLUMNS = [
  col("id", "text"),
  col("jobId", "text"),
  col("clusterId", "text"),
  col("budgetId", "text"),
  col("gpus", "integer"),
  col("placement", "jsonb"),
  col("isAllocated", "boolean"),
  col("startedAt", TS),
  col("protectedUntil", TS),
  col("endedAt", TS),
  col("endReason", '"RunEndReason"'),
  col("startAckedAt", TS),
  col("stopAckedAt", TS),
];
const DECISION_COLUMNS = [
  col("id", "text"),
  col("clusterId", "text"),
  col("jobId", "text"),
  col("runId", "text"),
  col("kind", '"DecisionKind"'),
  col("at", TS),
  col("reason", "jsonb"),
];
const NODE_CHANGE_COLUMNS = [
  col("id", "text"),
  col("clusterId", "text"),
  col("nodeIndex", "integer"),
  col("at", TS),
  col("health", '"NodeHealth"'),
  col("source", '"HealthChangeSource"'),
];

/**
 * Writes `history` into a database that holds the same org (users by email, leaves by path,
 * clusters by name) and builds the roll-ups of its range. Jobs of budgets or users that do not
 * exist are skipped with their runs and decisions.
 */
export async function insertLabHistory(db: Db, history: LabHistory): Promise<HistoryCounts> {
  const [nodes, users, clusters] = await Promise.all([
    db.budgetNode.findMany({
      where: { removedAt: null },
      select: { id: true, parentId: true, name: true, weight: true },
    }),
    db.user.findMany({ select: { id: true, email: true } }),
    db.cluster.findMany({
      select: { id: true, name: true, nodes: { select: { index: true, gpus: true } } },
    }),
  ]);
  const tree = validateBudgetTree(nodes);
  if (!tree.ok) throw new Error(`The stored tree is invalid: ${tree.issues[0]?.message}`);
  const leafIdOf = new Map(
    tree.value.nodes.filter((node) => node.isLeaf).map((node) => [node.path, node.id]),
  );
  const userIdOf = new Map(users.map((user) => [user.email, user.id]));
  const clusterIdOf = new Map(clusters.map((cluster) => [cluster.name, cluster.id]));

  const jobIdOf = new Map<string, string>();
  const jobRows: Record<string, unknown>[] = [];
  for (const job of history.jobs) {
    const budgetId = leafIdOf.get(job.budgetPath);
    const userId = userIdOf.get(job.user);
    const clusterId = clusterIdOf.get(job.cluster);
    if (!budgetId || !userId || !clusterId) continue;
    const id = randomUUID();
    jobIdOf.set(job.key, id);
    jobRows.push({
      id,
      clusterId,
      budgetId,
      userId,
      name: job.name,
      gpus: job.gpus,
      minRuntimeSec: job.minRuntimeSec,
      isResumable: job.isResumable,
      priority: job.priority,
      jobClass: job.jobClass,
      state: job.state,
      submittedAt: fromSec(job.submittedSec),
      firstStartedAt: job.firstStartedSec === null ? null : fromSec(job.firstStartedSec),
      endedAt: fromSec(job.endedSec),
      workSec: job.workSec,
      remainingWorkSec: job.remainingWorkSec,
      updatedAt: fromSec(job.endedSec),
    });
  }
  const runIdOf = new Map<string, string>();
  const runRows: Record<string, unknown>[] = [];
  for (const run of history.runs) {
    const jobId = jobIdOf.get(run.jobKey);
    if (!jobId) continue;
    const id = randomUUID();
    runIdOf.set(run.key, id);
    runRows.push({
      id,
      jobId,
      clusterId: clusterIdOf.get(run.cluster)!,
      budgetId: leafIdOf.get(run.budgetPath)!,
      gpus: run.gpus,
      placement: run.placement,
      isAllocated: run.isAllocated,
      startedAt: fromSec(run.startSec),
      protectedUntil: fromSec(run.protectedUntilSec),
      endedAt: fromSec(run.endSec),
      endReason: run.endReason,
      startAckedAt: fromSec(run.startSec),
      stopAckedAt: fromSec(run.endSec),
    });
  }
  const ids: Ids = { offsetSec: history.startSec, budgetIdOf: leafIdOf, jobIdOf, runIdOf };
  const decisionRows: Record<string, unknown>[] = [];
  for (const decision of history.decisions) {
    const jobId = decision.jobKey === null ? null : jobIdOf.get(decision.jobKey);
    if (jobId === undefined || decision.reason === null) continue;
    decisionRows.push({
      id: randomUUID(),
      clusterId: clusterIdOf.get(decision.cluster)!,
      jobId,
      runId: decision.runKey === null ? null : (runIdOf.get(decision.runKey) ?? null),
      kind: decision.kind,
      at: fromSec(decision.atSec),
      reason: relocateReason(decision.reason, ids),
    });
  }
  const nodesOf = (cluster: string): RollupNode[] =>
    (clusters.find((entry) => entry.name === cluster)?.nodes ?? []).map((node) => ({
      ...node,
      changes: history.nodeChanges
        .filter((change) => change.cluster === cluster && change.node === node.index)
        .map(({ atSec, health }) => ({ atSec, health })),
    }));
  const changeRows = history.nodeChanges.flatMap((change) => {
    const clusterId = clusterIdOf.get(change.cluster);
    return clusterId
      ? [
          {
            id: randomUUID(),
            clusterId,
            nodeIndex: change.node,
            at: fromSec(change.atSec),
            health: change.health,
            // The seeded past is the demo's own simulation: its node events are the driver's.
            source: "demo_driver",
          },
        ]
      : [];
  });

  const counts = await db.$transaction(
    async (tx) => {
      await insertRows(tx, "jobs", JOB_COLUMNS, jobRows);
      await insertRows(tx, "runs", RUN_COLUMNS, runRows);
      await insertRows(tx, "decisions", DECISION_COLUMNS, decisionRows);
      await insertRows(tx, "node_health_changes", NODE_CHANGE_COLUMNS, changeRows);
      await dateNodeStates(tx, history, clusterIdOf);
      // Roll-ups from the rows in hand (a rebuild from the tables gives the same; a db test checks).
      const epochs = await loadTreeEpochs(tx);
      let rollupRows = 0;
      for (const cluster of clusters) {
        const rows = computeHourlyRollups({
          clusterId: cluster.id,
          fromSec: history.startSec,
          untilSec: history.endSec,
          runs: history.runs.flatMap((run) => {
            const id = runIdOf.get(run.key);
            return id && run.cluster === cluster.name
              ? [
                  {
                    id,
                    budgetId: leafIdOf.get(run.budgetPath)!,
                    gpus: run.gpus,
                    startSec: run.startSec,
                    endSec: run.endSec,
                    isAllocated: run.isAllocated,
                    isPreempted: run.endReason === "preempted",
                    nodes: run.placement.map((slice) => slice.node),
                  },
                ]
              : [];
          }),
          jobs: history.jobs.flatMap((job) => {
            const id = jobIdOf.get(job.key);
            return id && job.cluster === cluster.name
              ? [
                  {
                    id,
                    budgetId: leafIdOf.get(job.budgetPath)!,
                    gpus: job.gpus,
                    minRuntimeSec: job.minRuntimeSec,
                    submitSec: job.submittedSec,
                    endSec: job.endedSec,
                  },
                ]
              : [];
          }),
          nodes: nodesOf(cluster.name),
          epochs,
        });
        await replaceClusterRollups(tx, cluster.id, history.startSec, history.endSec, rows);
        rollupRows += rows.length;
      }
      return {
        jobs: jobRows.length,
        runs: runRows.length,
        decisions: decisionRows.length,
        nodeChanges: changeRows.length,
        rollupRows,
      };
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
  // Fresh statistics for the planner: the tables just grew from nothing to tens of thousands.
  await db.$executeRawUnsafe("ANALYZE jobs, runs, decisions, usage_hourly, node_health_changes");
  return counts;
}
