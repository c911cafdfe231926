// Starting a run Allot decided: release the held SLURM job on the decided nodes, confirm the start
// once SLURM shows it there, undo it when SLURM starts it elsewhere or not in time, and drain a
// node where starts keep failing (docs/slurm.md, "What the bridge does").
import type { Plan } from "../data/executor";
import type { BridgeMemory } from "./bridge-memory";
import {
  endEvent,
  isRunningState,
  jobIdsInPlan,
  runEvent,
  type RoundInput,
  type RoundOutput,
} from "./bridge-round";
import { commentText } from "./job-comment";
import { ALLOT_DRAIN_PREFIX } from "./node-health";
import { TERMINAL_STATES, type SlurmJob } from "./slurm-read";

/** A start SLURM has not shown on the decided nodes within this time is undone. */
export const START_TIMEOUT_MS = 30_000;
/**
 * The longest a start waits while another job is still leaving a decided node: a run being
 * preempted leaves only after SLURM's KillWait (30 s by default) and its epilog.
 */
export const START_TIMEOUT_BUSY_MS = 5 * 60_000;
/** Job states in which a job is still on its nodes on its way out. */
const LEAVING_STATES = new Set(["COMPLETING", "SIGNALING", "STAGE_OUT"]);

/** What the bridge does this round for a start the plan names. Mutates `memory`. */
export function startRun(
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
  if (job!.state === "PENDING" && job!.priority > 0) {
    // Pending but not held, and not released for this run: SLURM requeued it by itself (a
    // node stopped responding), or a bridge before a restart released it. Either way it may
    // start anywhere, and a node list changed on a running job resizes it: hold it first.
    out.steps.push({ kind: "hold", jobId: id, why: "pending without Allot's release" });
    return;
  }
  memory.released.set(id, { runId, atMs: input.nowMs });
  // Not pending, not held, not running: SLURM is starting it (CONFIGURING, a node booting).
  // Wait for it as for a fresh release; a node list changed now would resize it.
  if (job!.priority > 0) return;
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
