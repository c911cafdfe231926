// The SLURM bridge (`allot slurm bridge`): one process beside slurmctld that, every few
// seconds, mirrors new sbatch jobs into Allot, applies Allot's plan with scontrol, mirrors node
// health both ways and writes each waiting job's reason into its SLURM comment. Mirroring is in
// mirror-jobs.ts; the rule is in reconcile.ts (starts in start-run.ts, node health in
// node-health.ts, the round's shapes in bridge-round.ts, its memory in bridge-memory.ts); this
// module reads both sides, runs the steps and posts the events.
import type { Plan } from "../data/executor";
import type { ExecutorEvent } from "../validation/executor";
import type { AllotClient } from "./allot-client";
import { createBridgeMemory, type BridgeMemory } from "./bridge-memory";
import { jobIdsInPlan, type SlurmStep } from "./bridge-round";
import { BATCH, mirrorSubmissions, postBatch } from "./mirror-jobs";
import { reconcile } from "./reconcile";
import {
  parseSacct,
  parseSinfo,
  parseSqueue,
  SQUEUE_ARGS,
  type SlurmJob,
  type SlurmNode,
} from "./slurm-read";
import type { SlurmRunner } from "./slurm-cli";

export type BridgeOptions = {
  cluster: string;
  allot: AllotClient;
  slurm: SlurmRunner;
  log: (line: string) => void;
  nowMs?: () => number;
};

/** The bridge's state across rounds: the rule's memory plus what it mirrored. */
export type Bridge = {
  options: BridgeOptions;
  memory: BridgeMemory;
  /** SLURM job ids Allot answered for (queued, or known already). */
  mirrored: Set<string>;
  /** SLURM job id -> why Allot (or the bridge) refused it, and when. */
  refused: Map<string, { reason: string; atMs: number }>;
  /** Notes logged lately, so a standing problem is logged once, not every round. */
  noted: Map<string, number>;
};

export function createBridge(options: BridgeOptions): Bridge {
  return {
    options,
    memory: createBridgeMemory(),
    mirrored: new Set(),
    refused: new Map(),
    noted: new Map(),
  };
}

export type RoundSummary = {
  submitted: number;
  refused: number;
  steps: number;
  events: number;
  failedSteps: number;
};

/** One round: read both sides, mirror submissions, reconcile, act, report. */
export async function runBridgeRound(bridge: Bridge): Promise<RoundSummary> {
  const { options } = bridge;
  const nowMs = options.nowMs?.() ?? Date.now();
  const [jobs, nodes] = await readSlurm(options.slurm);
  let plan = await readPlan(options);
  const mirroring = await mirrorSubmissions(bridge, jobs, plan, nowMs);
  if (mirroring.queued > 0) plan = await readPlan(options);
  const ended = await readEnded(options.slurm, jobs, plan);
  const round = reconcile({ jobs, nodes, plan, ended, nowMs }, bridge.memory);
  for (const note of round.notes) logOnce(bridge, note, nowMs);
  let failedSteps = 0;
  for (const step of [...mirroring.steps, ...round.steps]) {
    if (!(await runStep(bridge, step))) failedSteps += 1;
  }
  await postEvents(bridge, round.events, plan);
  return {
    submitted: mirroring.queued,
    refused: mirroring.refused,
    steps: mirroring.steps.length + round.steps.length,
    events: round.events.length,
    failedSteps,
  };
}

async function readSlurm(slurm: SlurmRunner): Promise<[SlurmJob[], SlurmNode[]]> {
  const [squeue, sinfo] = await Promise.all([
    slurm("squeue", SQUEUE_ARGS),
    slurm("sinfo", ["--json"]),
  ]);
  return [parseSqueue(squeue), parseSinfo(sinfo)];
}

function readPlan(options: BridgeOptions): Promise<Plan> {
  return options.allot.get<Plan>(`/api/v1/clusters/${encodeURIComponent(options.cluster)}/plan`);
}

/** sacct's last word on jobs the plan names that squeue has forgotten. */
async function readEnded(slurm: SlurmRunner, jobs: SlurmJob[], plan: Plan) {
  const listed = new Set(jobs.map((job) => job.id));
  const missing = jobIdsInPlan(plan).filter((id) => !listed.has(id));
  if (missing.length === 0) return new Map();
  const output = await slurm("sacct", [
    "-X",
    "-P",
    "-n",
    "--duplicates",
    "-o",
    "JobID,State,ExitCode",
    "-j",
    missing.join(","),
  ]);
  return parseSacct(output);
}

async function postEvents(bridge: Bridge, events: ExecutorEvent[], plan: Plan): Promise<void> {
  const hostOf = new Map(plan.nodes.map((node) => [node.index, node.hostname]));
  for (let at = 0; at < events.length; at += BATCH) {
    const batch = events.slice(at, at + BATCH);
    const results = await postBatch(bridge, batch);
    results.forEach((result, index) => {
      const event = batch[index]!;
      const subject = subjectOf(event, hostOf);
      const words = [`posted ${event.kind}`, subject, `(${event.id}):`, result.outcome];
      bridge.options.log(
        `${words.filter(Boolean).join(" ")}${result.note ? `, ${result.note}` : ""}`,
      );
    });
  }
}

/**
 * What an event is about, for the log: a run, a node (by its SLURM name, as `sinfo` shows it,
 * when the plan has one) or (a cancel) Allot's job.
 */
function subjectOf(event: ExecutorEvent, hostOf: Map<number, string | null>): string {
  if ("runId" in event) return `run ${event.runId}`;
  if ("node" in event) return `node ${hostOf.get(event.node) ?? event.node}`;
  if ("jobId" in event) return `job ${event.jobId}`;
  return "";
}

/** Runs one step; logs it; a failure is logged and retried by a later round. */
async function runStep(bridge: Bridge, step: SlurmStep): Promise<boolean> {
  const { slurm, log } = bridge.options;
  try {
    switch (step.kind) {
      case "release":
        await slurm("scontrol", [
          "update",
          `JobId=${step.jobId}`,
          `NodeList=${step.hosts.join(",")}`,
          "StartTime=now",
          `Comment=${step.comment}`,
        ]);
        await slurm("scontrol", ["release", step.jobId]);
        log(`released job ${step.jobId} (run ${step.runId}) on ${step.hosts.join(",")}`);
        break;
      case "hold":
        await slurm("scontrol", ["hold", step.jobId]);
        log(`held job ${step.jobId}: ${step.why}`);
        break;
      case "requeuehold":
        await slurm("scontrol", ["requeuehold", step.jobId]);
        log(`requeued job ${step.jobId} held: ${step.why}`);
        break;
      case "cancel":
        await slurm("scancel", [step.jobId]);
        log(`cancelled job ${step.jobId}: ${step.why}`);
        break;
      case "comment":
        await slurm("scontrol", ["update", `JobId=${step.jobId}`, `Comment=${step.text}`]);
        break;
      case "drain":
        await slurm("scontrol", [
          "update",
          `NodeName=${step.node}`,
          "State=DRAIN",
          `Reason=${step.reason}`,
        ]);
        log(`drained node ${step.node}: ${step.reason}`);
        break;
      case "resume":
        await slurm("scontrol", ["update", `NodeName=${step.node}`, "State=RESUME"]);
        log(`resumed node ${step.node}: ${step.why}`);
        break;
    }
    return true;
  } catch (error) {
    if (step.kind === "release") bridge.memory.released.delete(step.jobId);
    log(
      `FAILED ${step.kind} ${"jobId" in step ? `job ${step.jobId}` : `node ${step.node}`}: ${(error as Error).message}`,
    );
    return false;
  }
}

function logOnce(bridge: Bridge, note: string, nowMs: number): void {
  const last = bridge.noted.get(note);
  if (last !== undefined && nowMs - last < 5 * 60_000) return;
  bridge.noted.set(note, nowMs);
  bridge.options.log(note);
}

/**
 * Runs rounds every `intervalMs` until `signal` aborts. A failed round (SLURM or Allot
 * unreachable) is logged and retried with a backoff doubling up to 30 s.
 */
export async function runBridgeLoop(
  bridge: Bridge,
  intervalMs: number,
  signal: AbortSignal,
): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    let waitMs = intervalMs;
    try {
      const summary = await runBridgeRound(bridge);
      if (failures > 0) bridge.options.log(`round ok again after ${failures} failed`);
      failures = 0;
      // A release is confirmed soonest by looking again soon.
      if (summary.steps > 0) waitMs = Math.min(intervalMs, 500);
    } catch (error) {
      failures += 1;
      waitMs = Math.min(30_000, intervalMs * 2 ** Math.min(failures, 5));
      bridge.options.log(
        `round failed (${failures}): ${(error as Error).message}; next in ${waitMs / 1000} s`,
      );
    }
    await sleep(waitMs, signal);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });
}
