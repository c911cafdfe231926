// One round of the bridge as its parts see it: what goes in (squeue, sinfo, sacct, Allot's plan),
// what comes out (SLURM steps, Allot events, log notes), and the plan read by SLURM job id.
import type { Plan } from "../data/executor";
import type { ExecutorEvent } from "../validation/executor";
import type { SacctRecord, SlurmJob, SlurmNode } from "./slurm-read";

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

/** RUNNING or COMPLETING: the job still holds its nodes. */
export const isRunningState = (state: string) => state === "RUNNING" || state === "COMPLETING";

/** The job ids the plan's `externalId`s name, with what Allot thinks of each. */
export function allotView(plan: Plan) {
  const starts = new Map(plan.starts.filter((s) => s.externalId).map((s) => [s.externalId!, s]));
  const stops = new Map(
    plan.preemptions.filter((s) => s.externalId).map((s) => [s.externalId!, s]),
  );
  const running = new Map(plan.running.map((r) => [r.externalId, r]));
  const waiting = new Map(plan.waiting.map((w) => [w.externalId, w]));
  const cancelled = new Set(plan.cancelled.map((c) => c.externalId));
  return { starts, stops, running, waiting, cancelled };
}

export type AllotView = ReturnType<typeof allotView>;

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

type RunKind = "job.started" | "job.finished" | "job.failed" | "job.stopped" | "job.requeued";

/** Stable event ids: a retry after a timeout, or a restarted bridge, posts the same id. */
export function runEvent(kind: RunKind, jobId: string, runId: string) {
  return { id: `slurm-${jobId}-${runId}-${kind.slice(4)}`, kind, runId } as const;
}

/** The event for a job that ended on SLURM while Allot had it running. */
export function endEvent(
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
