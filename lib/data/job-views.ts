// Read models of jobs for the job page and GET /api/v1/jobs/{id}: plain DTOs with
// epoch seconds and every reason already written as a sentence.
import "server-only";
import { getDb } from "./db/app-db";
import { AppError } from "../errors";
import { describePlacement, type NodeSlice } from "../engine";
import {
  estimateLiveStart,
  explainLive,
  hostsOf,
  nodeNamerOf,
  summarizeLive,
} from "../sentences/live";
import { currentUsageOf } from "../sentences/current-usage";
import { getNow } from "./db/clock";
import { readRanking, type RankingRow } from "./tick/ranking";
import { toSec } from "./tick/load-state";

export type RunView = {
  id: string;
  gpus: number;
  nodes: number[];
  /** The executor's names for `nodes` (SLURM's NodeName, same order); null on a demo cluster. */
  hosts: string[] | null;
  isAllocated: boolean;
  startSec: number;
  endSec: number | null;
  protectedUntilSec: number;
  endReason: string | null;
  isStartAcknowledged: boolean;
};

export type DecisionView = {
  id: string;
  kind: string;
  atSec: number;
  runId: string | null;
  rule: string;
  /** One short plain sentence leading `sentence`. */
  summary: string;
  sentence: string;
  /** For preemptions made for another job: that job, to link to. */
  preemptorJobId: string | null;
  reason: unknown;
};

export type JobView = {
  id: string;
  name: string;
  cluster: string;
  /** The budget's rank now, among `rankOf` ranked leaf budgets of the cluster (null once the
   * job has ended: it no longer competes). */
  budget: {
    id: string;
    path: string;
    rank: number | null;
    rankOf: number;
    usageRatio: number | null;
  };
  user: { id: string; name: string };
  gpus: number;
  /** How the GPUs land on the cluster's nodes, in words ("1 whole node (8 GPUs) plus 4 ..."). */
  layout: string;
  minRuntimeSec: number;
  isResumable: boolean;
  priority: string;
  state: string;
  /** SLURM's job id of a job submitted with sbatch (mirrored by the bridge); else null. */
  externalId: string | null;
  submittedSec: number;
  endedSec: number | null;
  workSec: number | null;
  remainingWorkSec: number | null;
  queuePosition: number | null;
  /** One short plain sentence leading `waitSentence` (pending jobs). */
  waitSummary: string | null;
  waitSentence: string | null;
  /** ISO 8601 instant by which the pending job is expected to start, when a bound is known. */
  expectedStartAt: string | null;
  /** What would have to change for the pending job to start, when no time bound is known. */
  startNote: string | null;
  nowSec: number;
  runs: RunView[];
  decisions: DecisionView[];
  /** Who cancelled the job and why; null unless it was cancelled. */
  cancel: CancelView | null;
};

/** A cancel in the job's history: by a person in Allot, or on the cluster's executor. */
export type CancelView = {
  isByPerson: boolean;
  byName: string | null;
  atSec: number;
  reason: string | null;
};

/** The most decisions a job view holds: the newest, newest last. */
export const MAX_DECISIONS = 500;

function budgetRow(ranking: RankingRow[], budgetId: string) {
  const row = ranking.find((entry) => entry.id === budgetId);
  const rankedLeaves = ranking.filter((entry) => entry.isLeaf && entry.rank !== null).length;
  return { rank: row?.rank ?? null, rankOf: rankedLeaves, usageRatio: row?.usageRatio ?? null };
}

/**
 * The Allot id of the job an executor knows as `externalId` on cluster `clusterName` (SLURM's job
 * id for a job submitted with sbatch). A 404 names what is unknown: the cluster or the job.
 */
export async function findJobIdByExternalId(
  clusterName: string,
  externalId: string,
): Promise<string> {
  const db = getDb();
  const cluster = await db.cluster.findUnique({
    where: { name: clusterName },
    select: { id: true },
  });
  if (!cluster) throw new AppError("not_found", `No cluster is named "${clusterName}".`);
  const job = await db.job.findUnique({
    where: { clusterId_externalId: { clusterId: cluster.id, externalId } },
    select: { id: true },
  });
  if (!job) {
    throw new AppError(
      "not_found",
      `No job on ${clusterName} has the executor's id "${externalId}".`,
    );
  }
  return job.id;
}

/** One job with its runs and its decisions (the newest MAX_DECISIONS), newest last. */
export async function getJobView(jobId: string): Promise<JobView> {
  const db = getDb();
  const job = await db.job.findUnique({
    where: { id: jobId },
    include: {
      cluster: {
        select: {
          name: true,
          ranking: true,
          nodes: { select: { index: true, hostname: true, gpus: true } },
        },
      },
      user: { select: { id: true, name: true } },
      cancelledBy: { select: { name: true } },
      runs: { orderBy: { startedAt: "asc" } },
      // The newest ones: a free job that waits for weeks gathers hundreds of wait decisions.
      decisions: { orderBy: [{ at: "desc" }, { id: "desc" }], take: MAX_DECISIONS },
    },
  });
  if (!job) throw new AppError("not_found", `No job has id "${jobId}".`);
  const nowSec = toSec(await getNow(db));
  const ranking = readRanking(job.cluster.ranking);
  const path = ranking.find((row) => row.id === job.budgetId)?.path ?? job.budgetId;
  const isOpen = job.state === "pending" || job.state === "running";
  // A finished job has no rank: it no longer competes (the rank shown would be today's).
  const budget = isOpen
    ? budgetRow(ranking, job.budgetId)
    : { ...budgetRow(ranking, job.budgetId), rank: null };
  const isPending = job.state === "pending";
  const waitReason = isPending ? currentUsageOf(ranking)(job.waitReason) : null;
  const nodeName = nodeNamerOf(job.cluster.nodes);
  return {
    id: job.id,
    name: job.name,
    cluster: job.cluster.name,
    budget: { id: job.budgetId, path, ...budget },
    user: job.user,
    gpus: job.gpus,
    layout: describePlacement(job.gpus, Math.max(0, ...job.cluster.nodes.map((node) => node.gpus))),
    minRuntimeSec: job.minRuntimeSec,
    isResumable: job.isResumable,
    priority: job.priority,
    state: job.state,
    externalId: job.externalId,
    submittedSec: toSec(job.submittedAt),
    endedSec: job.endedAt ? toSec(job.endedAt) : null,
    workSec: job.workSec,
    remainingWorkSec: job.remainingWorkSec,
    queuePosition: isPending ? job.queuePosition : null,
    waitSummary: waitReason
      ? summarizeLive(waitReason, nowSec, {
          rankedBudgets: budget.rankOf,
          nodeName,
          ...(job.queuePosition !== null ? { jobsAhead: job.queuePosition - 1 } : {}),
        })
      : null,
    waitSentence: waitReason ? explainLive(waitReason, nowSec, nodeName) : null,
    ...(isPending
      ? estimateLiveStart(waitReason, nowSec, nodeName)
      : { expectedStartAt: null, startNote: null }),
    nowSec,
    runs: job.runs.map((run) => {
      const nodes = (run.placement as NodeSlice[]).map((slice) => slice.node);
      return {
        id: run.id,
        gpus: run.gpus,
        nodes,
        hosts: hostsOf(nodes, nodeName),
        isAllocated: run.isAllocated,
        startSec: toSec(run.startedAt),
        endSec: run.endedAt ? toSec(run.endedAt) : null,
        protectedUntilSec: toSec(run.protectedUntil),
        endReason: run.endReason,
        isStartAcknowledged: run.startAckedAt !== null,
      };
    }),
    decisions: [...job.decisions].reverse().map((decision) => {
      const reason = decision.reason as { rule?: string; preemptor?: { jobId?: string } };
      return {
        id: decision.id,
        kind: decision.kind,
        atSec: toSec(decision.at),
        runId: decision.runId,
        rule: reason.rule ?? decision.kind,
        summary: summarizeLive(reason, nowSec, { nodeName }),
        sentence: explainLive(reason, nowSec, nodeName),
        preemptorJobId: reason.preemptor?.jobId ?? null,
        reason,
      };
    }),
    cancel:
      job.state === "cancelled" && job.endedAt
        ? {
            isByPerson: job.cancelledById !== null,
            byName: job.cancelledBy?.name ?? null,
            atSec: toSec(job.endedAt),
            reason: job.cancelReason,
          }
        : null,
  };
}
