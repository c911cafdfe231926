// The executor interface (docs/executor.md): events in, idempotent by (cluster, event id),
// applied under the cluster's lock; the plan out (runs to start, runs to stop).
import "server-only";
import { getDb } from "./db/app-db";
import { AppError } from "../errors";
import type { NodeSlice } from "../engine";
import type { Prisma } from "../generated/prisma/client";
import { explainLive, nodeNamerOf } from "../sentences/live";
import { getLogger } from "../log/logger";
import { getMetrics } from "../metrics/registry";
import type { ExecutorEvent, ExecutorKind } from "../validation/executor";
import { getNow } from "./db/clock";
import { toSec, type Tx } from "./tick/load-state";
import { loadMirrorContext, queueMirroredJob, type MirrorContext } from "./mirrored-jobs";
import { lockCluster, type TickResult } from "./tick/tick";
import { tickAfterCommit } from "./tick/tick-queue";
import { lockTreeForUse } from "./tree-lock";

/** `refused`: a submission Allot cannot queue (the note says why); it is not recorded. */
export type EventOutcome = "applied" | "duplicate" | "ignored" | "refused";
export type EventResult = { id: string; outcome: EventOutcome; note?: string; jobId?: string };
export type IngestResult = {
  results: EventResult[];
  tick: TickResult | null;
  /** Set when the events committed but the tick after them failed. */
  tickError: string | null;
};

/**
 * Who sent the events, kept with each node health change: the cluster's executor (the
 * default), the demo executor, or a person (an admin on the nodes page or the API)
 * with their reason.
 */
export type EventActor =
  | { source: "executor" }
  | { source: "demo_driver" }
  | { source: "person"; userId: string; reason: string | null };

const CALLER_NAMES: Record<ExecutorKind, string> = { slurm: "a SLURM bridge" };

/**
 * Refuses a caller that reports itself as an executor of one kind (the SLURM bridge) for a
 * cluster another executor drives: its events and its acting on the plan would fight the
 * cluster's own executor.
 */
function assertDrivenBy(
  cluster: { name: string; executor: string },
  callerKind: ExecutorKind | null | undefined,
): void {
  if (!callerKind || cluster.executor === callerKind) return;
  throw new AppError(
    "conflict",
    `Cluster "${cluster.name}" is driven by the ${cluster.executor} executor, not ${CALLER_NAMES[callerKind]}: point the bridge at a cluster registered with allot slurm register.`,
  );
}

/**
 * Applies events in order in one transaction, then ticks the cluster once. `callerKind`, the
 * kind of executor the caller reports, must be the cluster's (nothing is written otherwise).
 */
export async function ingestEvents(
  clusterName: string,
  events: readonly ExecutorEvent[],
  options: { isTickSkipped?: boolean; actor?: EventActor; callerKind?: ExecutorKind | null } = {},
): Promise<IngestResult> {
  const actor = options.actor ?? { source: "executor" };
  const db = getDb();
  const now = await getNow(db);
  const results = await db.$transaction(
    async (tx) => {
      const hasSubmissions = events.some((event) => event.kind === "job.submitted");
      // The tree lock first (as submissions take it), then the cluster's.
      if (hasSubmissions) await lockTreeForUse(tx);
      await lockCluster(tx, clusterName);
      const cluster = await tx.cluster.findUnique({
        where: { name: clusterName },
        select: {
          id: true,
          name: true,
          executor: true,
          maxMinRuntimeSec: true,
          defaultMinRuntimeSec: true,
          nodes: { select: { index: true, gpus: true, health: true } },
        },
      });
      if (!cluster) throw new AppError("not_found", `No cluster is named "${clusterName}".`);
      assertDrivenBy(cluster, options.callerKind);
      const mirror = hasSubmissions ? await loadMirrorContext(tx, cluster) : null;
      const inserted = await tx.executorEvent.createManyAndReturn({
        data: events.map((event) => ({
          clusterId: cluster.id,
          eventId: event.id,
          kind: event.kind,
          payload: event as unknown as Prisma.InputJsonValue,
          receivedAt: now,
        })),
        skipDuplicates: true,
        select: { eventId: true },
      });
      const isNew = new Set(inserted.map((row) => row.eventId));
      const nodeIndices = new Set(cluster.nodes.map((node) => node.index));
      const seen = new Set<string>();
      const out: EventResult[] = [];
      for (const event of events) {
        if (!isNew.has(event.id) || seen.has(event.id)) {
          out.push({ id: event.id, outcome: "duplicate" });
          continue;
        }
        seen.add(event.id);
        if (event.kind === "job.submitted") {
          out.push(await applySubmission(tx, mirror!, event, now));
          continue;
        }
        const note =
          event.kind === "job.cancelled"
            ? await applyCancel(tx, cluster.id, event, now)
            : await applyEvent(tx, cluster.id, nodeIndices, event, now, actor);
        out.push(
          note ? { id: event.id, outcome: "ignored", note } : { id: event.id, outcome: "applied" },
        );
      }
      return out;
    },
    { timeout: 60_000, maxWait: 60_000 },
  );
  // A person's node health change goes through here, but is not the executor's activity.
  if (actor.source !== "person") recordBatch(clusterName, events, results);
  // Acknowledgements change nothing the engine sees (the run already holds its GPUs).
  const kindOf = new Map(events.map((event) => [event.id, event.kind]));
  const changed = results.some(
    (result) =>
      result.outcome === "applied" &&
      kindOf.get(result.id) !== "job.started" &&
      kindOf.get(result.id) !== "job.stopped",
  );
  if (!changed || options.isTickSkipped) return { results, tick: null, tickError: null };
  return { results, ...(await tickAfterCommit(clusterName, { db })) };
}

/** Counts a committed batch's events by kind and outcome, and logs it as one line. */
function recordBatch(
  cluster: string,
  events: readonly ExecutorEvent[],
  results: readonly EventResult[],
): void {
  const metrics = getMetrics();
  const outcomes: Record<EventOutcome, number> = {
    applied: 0,
    duplicate: 0,
    ignored: 0,
    refused: 0,
  };
  results.forEach((result, index) => {
    const kind = events[index]?.kind ?? "unknown";
    outcomes[result.outcome] += 1;
    metrics.executorEvents.inc({ cluster, kind, outcome: result.outcome });
  });
  getLogger().info({ cluster, events: results.length, outcomes }, "executor batch");
}

/** Queues a mirrored submission; a refused one is forgotten, so a retry is judged again. */
async function applySubmission(
  tx: Tx,
  mirror: MirrorContext,
  event: Extract<ExecutorEvent, { kind: "job.submitted" }>,
  now: Date,
): Promise<EventResult> {
  const outcome = await queueMirroredJob(tx, mirror, event, now);
  if (outcome.kind === "queued" || outcome.kind === "adopted") {
    return { id: event.id, outcome: "applied", jobId: outcome.jobId };
  }
  if (outcome.kind === "known") {
    return {
      id: event.id,
      outcome: "ignored",
      note: `Already queued as job ${outcome.jobId}.`,
      jobId: outcome.jobId,
    };
  }
  await tx.executorEvent.delete({
    where: { clusterId_eventId: { clusterId: mirror.cluster.id, eventId: event.id } },
  });
  return { id: event.id, outcome: "refused", note: outcome.reason };
}

/** A job cancelled on the executor: its open runs end (already stopped there), it leaves. */
async function applyCancel(
  tx: Tx,
  clusterId: string,
  event: Extract<ExecutorEvent, { kind: "job.cancelled" }>,
  now: Date,
): Promise<string | null> {
  const jobId = event.jobId;
  const job = await tx.job.findFirst({ where: { id: jobId, clusterId }, select: { state: true } });
  if (!job) return `No job "${jobId}" on this cluster.`;
  if (job.state !== "pending" && job.state !== "running") return `The job is already ${job.state}.`;
  await tx.run.updateMany({
    where: { jobId, endedAt: null },
    data: { endedAt: now, endReason: "cancelled", stopAckedAt: now },
  });
  await tx.job.update({
    where: { id: jobId },
    data: {
      state: "cancelled",
      endedAt: now,
      waitRule: null,
      waitKey: null,
      queuePosition: null,
      // No person in Allot: the job's history says the executor cancelled it, with its message.
      cancelReason: event.message?.trim() || null,
    },
  });
  return null;
}

/**
 * A node's new health, recorded with who set it. A person who sets the state a node is already
 * in takes it over from the executor that set it, so that the demo executor, which brings back
 * only the nodes it took out itself, leaves it alone.
 */
async function applyNodeHealth(
  tx: Tx,
  clusterId: string,
  node: number,
  kind: string,
  message: string | undefined,
  now: Date,
  actor: EventActor,
): Promise<string | null> {
  const health = kind.slice("node.".length) as "healthy" | "draining" | "down";
  const updated = await tx.clusterNode.updateMany({
    where: { clusterId, index: node, health: { not: health } },
    data: { health, healthChangedAt: now, ...(health === "draining" ? { drainedAt: null } : {}) },
  });
  const record = () =>
    tx.nodeHealthChange.create({
      data: {
        clusterId,
        nodeIndex: node,
        at: now,
        health,
        source: actor.source,
        userId: actor.source === "person" ? actor.userId : null,
        reason: (actor.source === "person" ? actor.reason : message?.trim()) || null,
      },
    });
  if (updated.count > 0) {
    await record();
    return null;
  }
  if (actor.source !== "person" || health === "healthy")
    return `Node ${node} is already ${health}.`;
  const last = await tx.nodeHealthChange.findFirst({
    where: { clusterId, nodeIndex: node },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    select: { source: true },
  });
  if (last?.source === "person") return `Node ${node} is already ${health}.`;
  await record();
  return `Node ${node} was already ${health} (set by its executor); it is now recorded as set by you.`;
}

/** Applies one new event; returns why it changed nothing, or null when it was applied. */
async function applyEvent(
  tx: Tx,
  clusterId: string,
  nodeIndices: Set<number>,
  event: ExecutorEvent,
  now: Date,
  actor: EventActor,
): Promise<string | null> {
  if (event.kind.startsWith("node.")) {
    const { node, message } = event as { node: number; message?: string };
    if (!nodeIndices.has(node)) return `The cluster has no node ${node}.`;
    return applyNodeHealth(tx, clusterId, node, event.kind, message, now, actor);
  }
  if (!("runId" in event)) return "Not an event about a run.";
  const runId = event.runId;
  const run = await tx.run.findFirst({
    where: { id: runId, clusterId },
    select: { jobId: true, endedAt: true, startedAt: true, startAckedAt: true, stopAckedAt: true },
  });
  if (!run) return `No run "${runId}" on this cluster.`;
  if (event.kind === "job.started") {
    if (run.endedAt || run.startAckedAt) return "The run already started or ended.";
    await tx.run.update({ where: { id: runId }, data: { startAckedAt: now } });
    return null;
  }
  if (event.kind === "job.stopped") {
    if (!run.endedAt || run.stopAckedAt)
      return "The run was not asked to stop, or its stop is known.";
    await tx.run.update({ where: { id: runId }, data: { stopAckedAt: now } });
    return null;
  }
  // job.finished / job.failed / job.requeued: a late report for a run the engine already ended
  // changes nothing.
  if (run.endedAt) return "The run already ended.";
  if (event.kind === "job.requeued") {
    // The executor put the job back in its queue (a start that did not happen where decided,
    // or its own requeue): the run ends, the job waits in Allot again.
    await tx.run.update({
      where: { id: runId },
      data: { endedAt: now, endReason: "failed", stopAckedAt: now },
    });
    await tx.job.update({ where: { id: run.jobId }, data: { state: "pending" } });
    return null;
  }
  const isFinished = event.kind === "job.finished";
  await tx.run.update({
    where: { id: runId },
    data: { endedAt: now, endReason: isFinished ? "completed" : "failed", stopAckedAt: now },
  });
  await tx.job.update({
    where: { id: run.jobId },
    data: {
      state: isFinished ? "completed" : "failed",
      endedAt: now,
      ...(isFinished ? { remainingWorkSec: 0 } : {}),
    },
  });
  return null;
}

export type PlanStart = {
  runId: string;
  jobId: string;
  /** The executor's id of a mirrored job (job.submitted); null for jobs submitted to Allot. */
  externalId: string | null;
  jobName: string;
  gpus: number;
  placement: NodeSlice[];
  isAllocated: boolean;
  protectedUntil: string;
  /** Known total work left (demo jobs), seconds; null for real jobs. */
  remainingWorkSec: number | null;
  reason: unknown;
  sentence: string;
};
export type PlanStop = {
  runId: string;
  jobId: string;
  externalId: string | null;
  /** A resumable job is back in Allot's queue: requeue it held rather than cancel it. */
  isResumable: boolean;
  placement: NodeSlice[];
  endReason: string;
  reason: unknown;
  sentence: string;
};
/** An acknowledged, open run of a mirrored job: it should be running on the executor. */
export type PlanRunning = {
  runId: string;
  jobId: string;
  externalId: string;
  placement: NodeSlice[];
  protectedUntil: string;
};
/** A pending mirrored job with its place in the queue and why it waits. */
export type PlanWaiting = {
  jobId: string;
  externalId: string;
  queuePosition: number | null;
  sentence: string;
};
export type PlanNode = { index: number; hostname: string | null; gpus: number; health: string };
export type Plan = {
  cluster: string;
  at: string;
  atSec: number;
  nodes: PlanNode[];
  starts: PlanStart[];
  preemptions: PlanStop[];
  running: PlanRunning[];
  waiting: PlanWaiting[];
  /** Mirrored jobs cancelled in Allot in the last day: the executor cancels them too. */
  cancelled: { jobId: string; externalId: string }[];
};

const CANCELLED_LISTED_MS = 24 * 3600 * 1000;

/**
 * What the executor should do now: runs not yet acknowledged as started, and runs to stop.
 * `callerKind`, the kind of executor the caller reports, must be the cluster's.
 */
export async function getPlan(
  clusterName: string,
  options: { callerKind?: ExecutorKind | null } = {},
): Promise<Plan> {
  const db = getDb();
  const cluster = await db.cluster.findUnique({
    where: { name: clusterName },
    select: {
      id: true,
      executor: true,
      nodes: {
        select: { index: true, hostname: true, gpus: true, health: true },
        orderBy: { index: "asc" },
      },
    },
  });
  if (!cluster) throw new AppError("not_found", `No cluster is named "${clusterName}".`);
  assertDrivenBy({ name: clusterName, executor: cluster.executor }, options.callerKind);
  const now = await getNow(db);
  const nowSec = toSec(now);
  // Sentences name nodes as SLURM does: they go into the jobs' SLURM comments.
  const nodeName = nodeNamerOf(cluster.nodes);
  const mirrored = { externalId: { not: null } } as const;
  const [starts, stops, running, waiting, cancelled] = await Promise.all([
    db.run.findMany({
      where: { clusterId: cluster.id, endedAt: null, startAckedAt: null },
      orderBy: { startedAt: "asc" },
      take: 1000,
      include: { job: { select: { name: true, remainingWorkSec: true, externalId: true } } },
    }),
    db.run.findMany({
      where: {
        clusterId: cluster.id,
        endedAt: { not: null },
        stopAckedAt: null,
        endReason: { in: ["preempted", "cancelled"] },
      },
      orderBy: { endedAt: "asc" },
      take: 1000,
      include: { job: { select: { externalId: true, isResumable: true } } },
    }),
    db.run.findMany({
      where: { clusterId: cluster.id, endedAt: null, startAckedAt: { not: null }, job: mirrored },
      orderBy: { startedAt: "asc" },
      take: 5000,
      select: {
        id: true,
        jobId: true,
        placement: true,
        protectedUntil: true,
        job: { select: { externalId: true } },
      },
    }),
    db.job.findMany({
      where: { clusterId: cluster.id, state: "pending", ...mirrored },
      orderBy: [{ queuePosition: "asc" }, { submittedAt: "asc" }],
      take: 5000,
      select: { id: true, externalId: true, queuePosition: true, waitReason: true },
    }),
    db.job.findMany({
      where: {
        clusterId: cluster.id,
        state: "cancelled",
        endedAt: { gte: new Date(now.getTime() - CANCELLED_LISTED_MS) },
        ...mirrored,
      },
      take: 5000,
      select: { id: true, externalId: true },
    }),
  ]);
  const runIds = [...starts, ...stops].map((run) => run.id);
  const decisions = await db.decision.findMany({
    where: { runId: { in: runIds }, kind: { in: ["start", "preempt"] } },
    select: { runId: true, kind: true, reason: true },
  });
  const reasonOf = (runId: string, kind: string) =>
    decisions.find((d) => d.runId === runId && d.kind === kind)?.reason ?? null;
  return {
    cluster: clusterName,
    at: now.toISOString(),
    atSec: nowSec,
    nodes: cluster.nodes,
    starts: starts.map((run) => {
      const reason = reasonOf(run.id, "start");
      return {
        runId: run.id,
        jobId: run.jobId,
        externalId: run.job.externalId,
        jobName: run.job.name,
        gpus: run.gpus,
        placement: run.placement as NodeSlice[],
        isAllocated: run.isAllocated,
        protectedUntil: run.protectedUntil.toISOString(),
        remainingWorkSec: run.job.remainingWorkSec,
        reason,
        sentence: explainLive(reason, nowSec, nodeName),
      };
    }),
    preemptions: stops.map((run) => {
      const reason = reasonOf(run.id, "preempt");
      return {
        runId: run.id,
        jobId: run.jobId,
        externalId: run.job.externalId,
        isResumable: run.job.isResumable,
        placement: run.placement as NodeSlice[],
        endReason: run.endReason ?? "preempted",
        reason,
        sentence: reason
          ? explainLive(reason, nowSec, nodeName)
          : "Cancelled by its owner or an admin.",
      };
    }),
    running: running.map((run) => ({
      runId: run.id,
      jobId: run.jobId,
      externalId: run.job.externalId!,
      placement: run.placement as NodeSlice[],
      protectedUntil: run.protectedUntil.toISOString(),
    })),
    waiting: waiting.map((job) => ({
      jobId: job.id,
      externalId: job.externalId!,
      queuePosition: job.queuePosition,
      sentence: job.waitReason
        ? explainLive(job.waitReason, nowSec, nodeName)
        : "Waiting for the next pass.",
    })),
    cancelled: cancelled.map((job) => ({ jobId: job.id, externalId: job.externalId! })),
  };
}
