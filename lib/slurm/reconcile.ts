// The bridge's rule, pure: given what SLURM shows (squeue, sinfo, sacct), what Allot wants (the
// plan) and what the bridge itself did lately, the SLURM commands to run and the events to post.
// Every round starts from both sides again, so a restart of either rebuilds the same view: a run
// is confirmed only when SLURM shows it on the decided nodes, and a pending job nobody released
// is held again (docs/slurm.md, "What the bridge does").
import type { Plan } from "../data/executor";
import { UNSEEN_MS_TO_END, type BridgeMemory } from "./bridge-memory";
import {
  allotView,
  endEvent,
  isRunningState,
  runEvent,
  type AllotView,
  type RoundInput,
  type RoundOutput,
} from "./bridge-round";
import { commentText } from "./job-comment";
import { mirrorNodes, slurmHealthOf } from "./node-health";
import { TERMINAL_STATES, type SacctRecord, type SlurmJob } from "./slurm-read";
import { START_TIMEOUT_MS, startRun } from "./start-run";

/** A waiting job's comment is rewritten at most this often. */
export const COMMENT_EVERY_MS = 30_000;
/** At most this many comments are rewritten per round (each is one scontrol call). */
export const COMMENTS_PER_ROUND = 100;

/**
 * Notes a round in which neither squeue nor sacct showed the job `id`: true once it has been
 * missing UNSEEN_MS_TO_END since an earlier round, else false with a note. A job shown again is
 * forgotten by `forget`.
 */
function isGoneFromSlurm(
  id: string,
  nowMs: number,
  memory: BridgeMemory,
  out: RoundOutput,
): boolean {
  const sinceMs = memory.unseenSinceMs.get(id);
  if (sinceMs !== undefined && nowMs - sinceMs >= UNSEEN_MS_TO_END) return true;
  if (sinceMs === undefined) memory.unseenSinceMs.set(id, nowMs);
  out.notes.push(
    `job ${id}: neither squeue nor sacct shows it; Allot ends it once it has been missing for ${UNSEEN_MS_TO_END / 1000} s`,
  );
  return false;
}

/** One round of the bridge's rule. Mutates `memory` to what it did. */
export function reconcile(input: RoundInput, memory: BridgeMemory): RoundOutput {
  const out: RoundOutput = { steps: [], events: [], notes: [] };
  const jobsById = new Map(input.jobs.map((job) => [job.id, job]));
  const view = allotView(input.plan);
  const hostOf = new Map(input.plan.nodes.map((node) => [node.index, node.hostname]));
  const handled = new Set<string>();
  // Node events first: a node that went down ends its runs as node_down, the truer reason.
  mirrorNodes(input, memory, out);
  for (const [id, start] of view.starts) {
    handled.add(id);
    startRun(id, start, jobsById.get(id), input, hostOf, memory, out);
  }
  for (const [id, run] of view.running) {
    handled.add(id);
    const hosts = run.placement.map((slice) => hostOf.get(slice.node) ?? "");
    const isNodeLost = input.nodes.some(
      (node) =>
        hosts.includes(node.name) &&
        (slurmHealthOf(node) === "down" || node.flags.includes("NOT_RESPONDING")),
    );
    const job = jobsById.get(id) ?? input.ended.get(id);
    if (!job && !isGoneFromSlurm(id, input.nowMs, memory, out)) continue;
    followRun(id, run, job, isNodeLost, out);
  }
  for (const [id, stop] of view.stops) {
    handled.add(id);
    stopRun(id, stop, jobsById.get(id), memory, out);
  }
  for (const id of view.cancelled) {
    const job = jobsById.get(id);
    // A job cancelled while it ran is also a stop above, which cancels it: once is enough.
    if (job && !TERMINAL_STATES.has(job.state) && !handled.has(id)) {
      out.steps.push({ kind: "cancel", jobId: id, why: "cancelled in Allot" });
    }
    handled.add(id);
  }
  for (const [id, wait] of view.waiting) {
    const job = jobsById.get(id) ?? input.ended.get(id);
    if (!job && !isGoneFromSlurm(id, input.nowMs, memory, out)) continue;
    if (job && !TERMINAL_STATES.has(job.state)) continue;
    // Cancelled on SLURM (or forgotten by it) while it waited in Allot.
    out.events.push({
      id: `slurm-${id}-cancelled-${wait.jobId}`,
      kind: "job.cancelled",
      jobId: wait.jobId,
      message: job ? `SLURM shows it ${job.state.toLowerCase()}` : "SLURM no longer knows the job",
    });
    handled.add(id);
  }
  for (const job of input.jobs) {
    if (handled.has(job.id)) continue;
    keepInAllotsHands(job, view.waiting.has(job.id), memory, input.nowMs, out);
  }
  writeComments(input, view.waiting, memory, out);
  forget(memory, jobsById, input.ended, view);
  return out;
}

function followRun(
  id: string,
  run: Plan["running"][number],
  job: SlurmJob | SacctRecord | undefined,
  isNodeLost: boolean,
  out: RoundOutput,
): void {
  const { runId, jobId: allotJobId } = run;
  if (!job) {
    out.events.push({
      ...runEvent("job.failed", id, runId),
      message: "SLURM no longer knows the job (neither squeue nor sacct).",
    });
    return;
  }
  if (isRunningState(job.state)) return;
  if (TERMINAL_STATES.has(job.state)) {
    out.events.push(endEvent(id, runId, allotJobId, job.state, job.exitCode));
    return;
  }
  // PENDING again: SLURM requeued it by itself (a node stopped responding, an admin's requeue).
  if ("priority" in job && job.priority > 0) {
    out.steps.push({ kind: "hold", jobId: id, why: "requeued by SLURM" });
  }
  // Its node is down: node.down (this round, from mirrorNodes) ends the run as node_down.
  if (isNodeLost) return;
  out.events.push({
    ...runEvent("job.requeued", id, runId),
    message: `SLURM requeued it (${"reason" in job ? job.reason : job.state}).`,
  });
}

function stopRun(
  id: string,
  stop: Plan["preemptions"][number],
  job: SlurmJob | undefined,
  memory: BridgeMemory,
  out: RoundOutput,
): void {
  const isCancel = stop.endReason === "cancelled" || !stop.isResumable;
  if (job && isRunningState(job.state)) {
    if (memory.stopping.get(id) === stop.runId) return; // asked already; SLURM is stopping it
    memory.stopping.set(id, stop.runId);
    const why = `${stop.endReason} by Allot`;
    // A resumable job waits in Allot's queue again: requeue it held. Anything else is over.
    out.steps.push(
      isCancel ? { kind: "cancel", jobId: id, why } : { kind: "requeuehold", jobId: id, why },
    );
    return;
  }
  memory.stopping.delete(id);
  if (job?.state === "PENDING") {
    if (isCancel) out.steps.push({ kind: "cancel", jobId: id, why: `${stop.endReason} by Allot` });
    else if (job.priority > 0) out.steps.push({ kind: "hold", jobId: id, why: "stopped by Allot" });
  }
  out.events.push(runEvent("job.stopped", id, stop.runId));
}

/** Jobs the plan does not name: hold what nobody released, stop what Allot did not start. */
function keepInAllotsHands(
  job: SlurmJob,
  isWaitingInAllot: boolean,
  memory: BridgeMemory,
  nowMs: number,
  out: RoundOutput,
): void {
  const released = memory.released.get(job.id);
  const isFresh = released !== undefined && nowMs - released.atMs < START_TIMEOUT_MS;
  if (job.state === "PENDING" && job.priority > 0 && !isFresh) {
    out.steps.push({ kind: "hold", jobId: job.id, why: "pending without Allot's release" });
  }
  if (isRunningState(job.state) && isWaitingInAllot && !isFresh) {
    out.steps.push({ kind: "requeuehold", jobId: job.id, why: "running without Allot's start" });
  }
}

function writeComments(
  input: RoundInput,
  waiting: Map<string, Plan["waiting"][number]>,
  memory: BridgeMemory,
  out: RoundOutput,
): void {
  let budget = COMMENTS_PER_ROUND;
  for (const job of input.jobs) {
    const wait = waiting.get(job.id);
    if (!wait || job.state !== "PENDING" || budget === 0) continue;
    // The plan's queuePosition counts from 1, as `allot squeue` shows it (POS).
    const text = commentText(
      `${wait.queuePosition === null ? "" : `#${wait.queuePosition} in Allot's queue. `}${wait.sentence}`,
      job.comment,
    );
    const lastMs = memory.commentedAtMs.get(job.id);
    if (text === job.comment || (lastMs !== undefined && input.nowMs - lastMs < COMMENT_EVERY_MS))
      continue;
    memory.commentedAtMs.set(job.id, input.nowMs);
    out.steps.push({ kind: "comment", jobId: job.id, text });
    budget -= 1;
  }
}

/** Drops memory of jobs neither side lists any more, and of missing jobs seen again. */
function forget(
  memory: BridgeMemory,
  jobsById: Map<string, SlurmJob>,
  ended: RoundInput["ended"],
  view: AllotView,
): void {
  // A job shown again, or no longer Allot's to follow, is no longer counted as missing.
  for (const id of memory.unseenSinceMs.keys()) {
    const isMissing = !jobsById.has(id) && !ended.has(id);
    const isAllots = view.running.has(id) || view.waiting.has(id);
    if (!isMissing || !isAllots) memory.unseenSinceMs.delete(id);
  }
  for (const map of [memory.released, memory.stopping, memory.commentedAtMs] as Map<
    string,
    unknown
  >[]) {
    for (const id of map.keys()) {
      const job = jobsById.get(id);
      const isLive = job !== undefined && !TERMINAL_STATES.has(job.state);
      if (!isLive && !view.starts.has(id) && !view.stops.has(id)) map.delete(id);
    }
  }
}
