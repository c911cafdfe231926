// The bridge's rule, pure: given what SLURM shows (squeue, sinfo, sacct), what Allot wants (the
// plan) and what the bridge itself did lately, the SLURM commands to run and the events to post.
// Every round starts from both sides again, so a restart of either rebuilds the same view: a run
// is confirmed only when SLURM shows it on the decided nodes, and a pending job nobody released
// is held again (docs/slurm.md, "What the bridge does").
import type { Plan, PlanNode } from "../data/executor";
import type { ExecutorEvent } from "../validation/executor";
import { commentText } from "./job-comment";
import { TERMINAL_STATES, type SacctRecord, type SlurmJob, type SlurmNode } from "./slurm-read";

/** A start SLURM has not shown on the decided nodes within this time is undone. */
export const START_TIMEOUT_MS = 30_000;
/**
 * The longest a start waits while another job is still leaving a decided node: a run being
 * preempted leaves only after SLURM's KillWait (30 s by default) and its epilog.
 */
export const START_TIMEOUT_BUSY_MS = 5 * 60_000;
/** Job states in which a job is still on its nodes on its way out. */
const LEAVING_STATES = new Set(["COMPLETING", "SIGNALING", "STAGE_OUT"]);
/** A waiting job's comment is rewritten at most this often. */
export const COMMENT_EVERY_MS = 30_000;
/** At most this many comments are rewritten per round (each is one scontrol call). */
export const COMMENTS_PER_ROUND = 100;

type Health = "healthy" | "draining" | "down";

/** What the bridge remembers between rounds; empty after a restart, and that is fine. */
export type BridgeMemory = {
  /**
   * SLURM job id -> the run released and when; and when a decided node was last seen still
   * being left by another job (the start's wait counts from then).
   */
  released: Map<string, { runId: string; atMs: number; leftAtMs?: number }>;
  /** SLURM job id -> the run being stopped. */
  stopping: Map<string, string>;
  /** SLURM job id -> when its comment was last written. */
  commentedAtMs: Map<string, number>;
  /** Node name -> the health last seen on each side. */
  nodes: Map<string, { slurm: Health; allot: Health }>;
  /** Node name -> starts SLURM did not make there in a row. */
  failedStarts: Map<string, number>;
  /** SLURM job id -> since when (round time) neither squeue nor sacct has shown it. */
  unseenSinceMs: Map<string, number>;
};

/**
 * How long a job Allot runs or queues must be missing from both squeue and sacct, over two
 * rounds at least, before it is ended in Allot: one empty read (slurmctld restarting) or a
 * slurmdbd behind squeue's purge of a finished job must not free GPUs that are busy, nor cancel
 * work that waits.
 */
export const UNSEEN_MS_TO_END = 60_000;

export function createBridgeMemory(): BridgeMemory {
  return {
    released: new Map(),
    stopping: new Map(),
    commentedAtMs: new Map(),
    nodes: new Map(),
    failedStarts: new Map(),
    unseenSinceMs: new Map(),
  };
}

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

/** One SLURM command, with the reason it is logged with. */
export type SlurmStep =
  | { kind: "release"; jobId: string; runId: string; hosts: string[]; comment: string }
  | { kind: "hold"; jobId: string; why: string }
  | { kind: "requeuehold"; jobId: string; why: string }
  | { kind: "cancel"; jobId: string; why: string }
  | { kind: "comment"; jobId: string; text: string }
  | { kind: "drain"; node: string; reason: string }
  | { kind: "resume"; node: string; why: string };

export type RoundInput = {
  jobs: readonly SlurmJob[];
  nodes: readonly SlurmNode[];
  plan: Plan;
  /** sacct's last record of jobs the plan names that squeue no longer lists. */
  ended: ReadonlyMap<string, SacctRecord>;
  nowMs: number;
};

export type RoundOutput = { steps: SlurmStep[]; events: ExecutorEvent[]; notes: string[] };

const isRunningState = (state: string) => state === "RUNNING" || state === "COMPLETING";

/** The job ids the plan's `externalId`s name, with what Allot thinks of each. */
function allotView(plan: Plan) {
  const starts = new Map(plan.starts.filter((s) => s.externalId).map((s) => [s.externalId!, s]));
  const stops = new Map(
    plan.preemptions.filter((s) => s.externalId).map((s) => [s.externalId!, s]),
  );
  const running = new Map(plan.running.map((r) => [r.externalId, r]));
  const waiting = new Map(plan.waiting.map((w) => [w.externalId, w]));
  const cancelled = new Set(plan.cancelled.map((c) => c.externalId));
  return { starts, stops, running, waiting, cancelled };
}

/** The SLURM job ids the plan refers to, for a sacct lookup of those squeue forgot. */
export function jobIdsInPlan(plan: Plan): string[] {
  const view = allotView(plan);
  return [
    ...new Set([
      ...view.starts.keys(),
      ...view.stops.keys(),
      ...view.running.keys(),
      ...view.waiting.keys(),
    ]),
  ];
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

function startRun(
  id: string,
  start: Plan["starts"][number],
  job: SlurmJob | undefined,
  input: RoundInput,
  hostOf: Map<number, string | null>,
  memory: BridgeMemory,
  out: RoundOutput,
): void {
  const runId = start.runId;
  const hosts = start.placement.map((slice) => hostOf.get(slice.node) ?? null);
  if (hosts.some((host) => host === null)) {
    out.notes.push(`job ${id}: a decided node has no SLURM name; run allot slurm register`);
    return;
  }
  const wanted = [...new Set(hosts as string[])].sort();
  const ended = job ? null : input.ended.get(id);
  if (!job && !ended) return; // squeue and sacct both lost it: the next round will know more
  const state = job?.state ?? ended!.state;
  if (isRunningState(state)) {
    const actual = [...new Set(job!.nodes)].sort();
    const released = memory.released.get(id);
    memory.released.delete(id);
    if (actual.join(",") === wanted.join(",")) {
      noteStart(memory, wanted, true);
      out.events.push(runEvent("job.started", id, runId));
      return;
    }
    if (released?.runId !== runId) {
      // Not this bridge's release: an earlier run still going (SLURM requeues late). Stop it;
      // the decided start follows once it is pending again.
      out.steps.push({
        kind: "requeuehold",
        jobId: id,
        why: `an earlier run on ${actual.join(",")} is still going`,
      });
      return;
    }
    out.steps.push({
      kind: "requeuehold",
      jobId: id,
      why: `SLURM started it on ${actual.join(",")}, not on ${wanted.join(",")}`,
    });
    out.events.push({
      ...runEvent("job.requeued", id, runId),
      message: `SLURM started it on ${actual.join(",")} instead of ${wanted.join(",")}.`,
    });
    return;
  }
  if (TERMINAL_STATES.has(state)) {
    // It ran (and ended) between two rounds: confirm the start, then the end.
    memory.released.delete(id);
    out.events.push(runEvent("job.started", id, runId));
    out.events.push(endEvent(id, runId, start.jobId, state, job?.exitCode ?? ended!.exitCode));
    return;
  }
  const released = memory.released.get(id);
  if (released?.runId === runId) {
    if (!isStartOverdue(released, hostsBeingLeft(input, memory, wanted, id), input.nowMs)) return;
    memory.released.delete(id);
    out.steps.push({ kind: "hold", jobId: id, why: "did not start where Allot decided" });
    drainAfterFailedStarts(memory, wanted, input, out);
    const within =
      released.leftAtMs === undefined
        ? `${START_TIMEOUT_MS / 1000} s`
        : input.nowMs - released.atMs >= START_TIMEOUT_BUSY_MS
          ? `${START_TIMEOUT_BUSY_MS / 60_000} min, another job leaving the nodes`
          : `${START_TIMEOUT_MS / 1000} s of another job leaving the nodes`;
    out.events.push({
      ...runEvent("job.requeued", id, runId),
      message: `SLURM did not start it on ${wanted.join(",")} within ${within} (${job!.reason}).`,
    });
    return;
  }
  if (job!.priority > 0) {
    // Pending but not held, and not released for this run: SLURM requeued it by itself (a
    // node stopped responding), or a bridge before a restart released it. Either way it may
    // start anywhere, and a node list changed on a running job resizes it: hold it first.
    out.steps.push({ kind: "hold", jobId: id, why: "pending without Allot's release" });
    return;
  }
  memory.released.set(id, { runId, atMs: input.nowMs });
  out.steps.push({
    kind: "release",
    jobId: id,
    runId,
    hosts: wanted,
    comment: commentText(start.sentence, job!.comment),
  });
}

/**
 * The decided hosts another job is still leaving: completing, or one Allot is stopping. A
 * neighbour Allot placed there and keeps running does not count: the start should fit beside it.
 */
function hostsBeingLeft(
  input: RoundInput,
  memory: BridgeMemory,
  hosts: readonly string[],
  jobId: string,
): string[] {
  const stopping = new Set(input.plan.preemptions.map((stop) => stop.externalId));
  const isLeaving = (other: SlurmJob): boolean =>
    other.id !== jobId &&
    (LEAVING_STATES.has(other.state) ||
      ((stopping.has(other.id) || memory.stopping.has(other.id)) &&
        !TERMINAL_STATES.has(other.state)));
  return hosts.filter((host) =>
    input.jobs.some((other) => isLeaving(other) && other.nodes.includes(host)),
  );
}

/**
 * Whether a released start SLURM has not made is overdue: 30 s after its release, or after a
 * decided node was last seen being left by another job (`leftAtMs`, noted here), but never
 * more than {@link START_TIMEOUT_BUSY_MS} after its release.
 */
function isStartOverdue(
  released: { atMs: number; leftAtMs?: number },
  beingLeft: readonly string[],
  nowMs: number,
): boolean {
  if (beingLeft.length > 0) released.leftAtMs = nowMs;
  if (nowMs - released.atMs >= START_TIMEOUT_BUSY_MS) return true;
  return nowMs - Math.max(released.atMs, released.leftAtMs ?? released.atMs) >= START_TIMEOUT_MS;
}

/** Consecutive starts SLURM did not make on a node before the bridge drains it. */
export const FAILED_STARTS_TO_DRAIN = 2;

function noteStart(memory: BridgeMemory, hosts: readonly string[], isOk: boolean): number {
  let most = 0;
  for (const host of hosts) {
    const count = isOk ? 0 : (memory.failedStarts.get(host) ?? 0) + 1;
    memory.failedStarts.set(host, count);
    most = Math.max(most, count);
  }
  return most;
}

/**
 * Hosts running a SLURM job Allot neither started nor knows of (one that ran before the bridge
 * did, or that root released by hand), each with that job's id: SLURM sees the GPUs busy while
 * Allot's plan shows them free.
 */
function hostsOfUnknownJobs(input: RoundInput, memory: BridgeMemory): Map<string, string> {
  const known = new Set([...jobIdsInPlan(input.plan), ...memory.released.keys()]);
  const hosts = new Map<string, string>();
  for (const job of input.jobs) {
    // A job stuck completing is the node's problem (an epilog that hangs): not counted here.
    if (job.state !== "RUNNING" || known.has(job.id)) continue;
    for (const host of job.nodes) hosts.set(host, job.id);
  }
  return hosts;
}

/**
 * A node where SLURM keeps refusing what Allot placed (its GPUs look busy to SLURM, say after
 * a node failure) is unhealthy in effect: drained on both sides, with the reason, for an admin.
 * When a job Allot does not know runs on some of the decided nodes, those explain the refusal:
 * only they are blamed (and drained, naming the job), not the placement's idle nodes.
 */
function drainAfterFailedStarts(
  memory: BridgeMemory,
  hosts: readonly string[],
  input: RoundInput,
  out: RoundOutput,
): void {
  const unknown = hostsOfUnknownJobs(input, memory);
  const busy = hosts.filter((host) => unknown.has(host));
  const blamed = busy.length > 0 ? busy : hosts;
  noteStart(memory, blamed, false);
  for (const host of blamed) {
    if ((memory.failedStarts.get(host) ?? 0) < FAILED_STARTS_TO_DRAIN) continue;
    const node = input.plan.nodes.find((entry) => entry.hostname === host);
    if (!node || node.health !== "healthy") continue;
    const job = unknown.get(host);
    const reason = job
      ? `${ALLOT_DRAIN_PREFIX} runs SLURM job ${job}, which Allot did not start; resume it once that job ends`
      : `${ALLOT_DRAIN_PREFIX} SLURM did not start ${FAILED_STARTS_TO_DRAIN} runs placed here`;
    memory.failedStarts.set(host, 0);
    memory.nodes.set(host, { slurm: "draining", allot: "draining" });
    out.steps.push({ kind: "drain", node: host, reason });
    out.events.push({
      id: `slurm-node-${host}-draining-${input.nowMs}`,
      kind: "node.draining",
      node: node.index,
      message: reason,
    });
  }
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

/** SLURM's view of a node's health: DOWN -> down; DRAIN -> draining; else healthy. */
export function slurmHealthOf(node: SlurmNode): Health {
  // SLURM sets DOWN itself after SlurmdTimeout; a NOT_RESPONDING flag alone ("idle*") comes
  // and goes (a resumed node shows it for a moment) and changes nothing.
  if (node.state.includes("down")) return "down";
  if (node.flags.includes("DRAIN") || node.state.startsWith("drain")) return "draining";
  return "healthy";
}

/** The start of the reason SLURM shows for a drain Allot asked for. */
export const ALLOT_DRAIN_PREFIX = "Allot:";

/**
 * Node health both ways, by change: a change SLURM shows goes to Allot (node.draining,
 * node.down, node.healthy), a change Allot made goes to SLURM (State=DRAIN with a reason that
 * starts "Allot:", or State=RESUME). At the first look, the unhealthy side wins.
 */
function mirrorNodes(input: RoundInput, memory: BridgeMemory, out: RoundOutput): void {
  const allotByHost = new Map<string | null, PlanNode>(
    input.plan.nodes.map((node) => [node.hostname, node]),
  );
  for (const node of input.nodes) {
    const allot = allotByHost.get(node.name);
    if (!allot) continue;
    const slurm = slurmHealthOf(node);
    const allotHealth = allot.health as Health;
    const last = memory.nodes.get(node.name);
    memory.nodes.set(node.name, { slurm, allot: allotHealth });
    if (slurm === allotHealth) continue;
    const slurmChanged = last === undefined ? slurm !== "healthy" : last.slurm !== slurm;
    const allotChanged =
      last === undefined ? allotHealth !== "healthy" : last.allot !== allotHealth;
    if (slurmChanged) {
      out.events.push({
        id: `slurm-node-${node.name}-${slurm}-${input.nowMs}`,
        kind: `node.${slurm}`,
        node: allot.index,
        message:
          node.reason ||
          `SLURM shows ${node.state}${node.flags.length ? ` (${node.flags.join(",")})` : ""}`,
      });
      memory.nodes.set(node.name, { slurm, allot: slurm });
    } else if (allotChanged && allotHealth !== "healthy" && slurm === "healthy") {
      // Remembered as done, so the next round does not take SLURM's drain for news.
      memory.nodes.set(node.name, { slurm: "draining", allot: allotHealth });
      out.steps.push({
        kind: "drain",
        node: node.name,
        reason: `${ALLOT_DRAIN_PREFIX} ${allotHealth === "down" ? "down" : "drained"} in Allot`,
      });
    } else if (allotChanged && allotHealth === "healthy") {
      // The newer word wins: an admin who set the node healthy in Allot resumes it in SLURM.
      memory.nodes.set(node.name, { slurm: "healthy", allot: "healthy" });
      out.steps.push({ kind: "resume", node: node.name, why: "healthy again in Allot" });
    }
  }
}

/** Drops memory of jobs neither side lists any more, and of missing jobs seen again. */
function forget(
  memory: BridgeMemory,
  jobsById: Map<string, SlurmJob>,
  ended: RoundInput["ended"],
  view: ReturnType<typeof allotView>,
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

type RunKind = "job.started" | "job.finished" | "job.failed" | "job.stopped" | "job.requeued";

/** Stable event ids: a retry after a timeout, or a restarted bridge, posts the same id. */
function runEvent(kind: RunKind, jobId: string, runId: string) {
  return { id: `slurm-${jobId}-${runId}-${kind.slice(4)}`, kind, runId } as const;
}

/** The event for a job that ended on SLURM while Allot had it running. */
function endEvent(
  id: string,
  runId: string,
  allotJobId: string,
  state: string,
  exitCode: number,
): ExecutorEvent {
  if (state === "COMPLETED") return runEvent("job.finished", id, runId);
  if (state === "CANCELLED") {
    return {
      id: `slurm-${id}-${runId}-cancelled`,
      kind: "job.cancelled",
      jobId: allotJobId,
      message: "scancel on SLURM",
    };
  }
  return {
    ...runEvent("job.failed", id, runId),
    message: state === "FAILED" ? `exit code ${exitCode}` : state.toLowerCase().replace(/_/g, " "),
  };
}
