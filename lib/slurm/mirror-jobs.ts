// Mirroring SLURM's jobs into Allot (`job.submitted`): each new pending job sbatch made is
// offered to Allot's queue, and a job already running that Allot does not know (one that ran
// before the bridge did) is offered with where and since when it runs, for Allot to adopt. A
// refusal is logged once and written into the job's comment; a refused pending job stays held.
import { plural } from "../engine/explain-words";
import type { EventResult, Plan } from "../data/executor";
import type { ExecutorEvent } from "../validation/executor";
import type { Bridge } from "./bridge";
import { jobIdsInPlan, type SlurmStep } from "./bridge-round";
import { commentText, minRuntimeOf, priorityOf } from "./job-comment";
import type { SlurmJob } from "./slurm-read";

/** A refused submission is offered to Allot again after this long (the tree may have changed). */
export const REFUSED_RETRY_MS = 60_000;
/** Events per POST. */
export const BATCH = 500;

type Submitted = Extract<ExecutorEvent, { kind: "job.submitted" }>;

/** What the bridge refuses before asking Allot: requests Allot's placement cannot honour. */
export function localRefusal(job: SlurmJob, nodeGpus: number): string | null {
  if (job.gpus === 0) {
    return "It asks for no GPUs; ask for them with --gres=gpu:N or --gpus=N.";
  }
  if (job.nodeCount > 1 && job.gpusPerNode !== null && job.gpusPerNode !== nodeGpus) {
    return `Jobs over one node take whole nodes: ask for --gres=gpu:${nodeGpus} per node (or --gpus=N without -N).`;
  }
  return null;
}

/**
 * Where a running SLURM job holds GPUs, in Allot's node indices, and since when; or why that
 * cannot be told from squeue (a `--gpus=N` job spread unevenly over its nodes, a node Allot
 * has not registered).
 *
 * @example runningPlacement(job on n2 with 4 GPUs since 09:30, plan) // { placement: [{ node: 1, gpus: 4 }], startedAt: "...T09:30:00.000Z" }
 */
export function runningPlacement(job: SlurmJob, plan: Plan): Submitted["running"] | string {
  const hosts = [...new Set(job.nodes)];
  if (hosts.length === 0 || job.startedAtMs === null) {
    return "squeue shows no nodes or start time for it.";
  }
  const byHost = new Map(plan.nodes.map((node) => [node.hostname, node]));
  const placement: { node: number; gpus: number }[] = [];
  for (const host of hosts) {
    const node = byHost.get(host);
    if (node === undefined) return `Node ${host} is not registered in Allot.`;
    // Over several nodes, `--gpus=N` is spread as SLURM likes (6 + 2): only whole nodes are
    // known from squeue. On one node, the node holds them all.
    const gpus = hosts.length === 1 ? job.gpus : (job.gpusPerNode ?? node.gpus);
    placement.push({ node: node.index, gpus });
  }
  const placed = placement.reduce((sum, slice) => sum + slice.gpus, 0);
  if (placed !== job.gpus) {
    return `squeue does not show how its ${job.gpus} GPUs are spread over ${hosts.length} nodes.`;
  }
  return { placement, startedAt: new Date(job.startedAtMs).toISOString() };
}

function submittedEvent(job: SlurmJob, running?: Submitted["running"]): Submitted {
  return {
    id: `slurm-${job.id}-submitted`,
    kind: "job.submitted",
    externalId: job.id,
    account: job.account,
    user: job.user,
    name: job.name.slice(0, 120) || `slurm job ${job.id}`,
    gpus: job.gpus,
    minRuntimeSec: minRuntimeOf(job),
    isResumable: job.isRequeueable,
    priority: priorityOf(job),
    ...(running && { running }),
  };
}

/**
 * Offers Allot the jobs it does not know: running ones first (to adopt, so that their GPUs are
 * busy before Allot places anything), then pending ones. Returns the SLURM steps refusals need
 * (a comment, a hold) and how many Allot took.
 */
export async function mirrorSubmissions(
  bridge: Bridge,
  jobs: SlurmJob[],
  plan: Plan,
  nowMs: number,
): Promise<{ queued: number; refused: number; steps: SlurmStep[] }> {
  // Jobs Allot already has, cancelled ones included.
  const known = new Set([...jobIdsInPlan(plan), ...plan.cancelled.map((c) => c.externalId)]);
  const liveIds = new Set(
    jobs.filter((job) => job.state === "PENDING" || job.state === "RUNNING").map((job) => job.id),
  );
  for (const id of bridge.mirrored)
    if (!liveIds.has(id) && !known.has(id)) bridge.mirrored.delete(id);
  const nodeGpus = Math.max(0, ...plan.nodes.map((node) => node.gpus));
  const steps: SlurmStep[] = [];
  const refuse = (job: SlurmJob, reason: string) => {
    // Tried again every minute: logged once, and again only for a new reason.
    const isNews = bridge.refused.get(job.id)?.reason !== reason;
    bridge.refused.set(job.id, { reason, atMs: nowMs });
    const what = job.state === "RUNNING" ? "running job" : "job";
    if (isNews) {
      bridge.options.log(
        `refused ${what} ${job.id} (${job.user}, account ${job.account}): ${reason}`,
      );
    }
    const text = commentText(
      `not ${job.state === "RUNNING" ? "adopted" : "queued"}: ${reason}`,
      job.comment,
    );
    if (job.comment !== text) steps.push({ kind: "comment", jobId: job.id, text });
    if (job.state === "PENDING" && job.priority > 0) {
      steps.push({ kind: "hold", jobId: job.id, why: "refused by Allot" });
    }
  };
  const isNew = (job: SlurmJob) => {
    if (known.has(job.id) || bridge.mirrored.has(job.id)) return false;
    const last = bridge.refused.get(job.id);
    return !last || nowMs - last.atMs >= REFUSED_RETRY_MS;
  };
  const events: Submitted[] = [];
  const byId = new Map<string, SlurmJob>();
  let refused = 0;
  // A job this bridge released is Allot's even when the plan has moved on: not adopted.
  const running = jobs.filter(
    (job) => job.state === "RUNNING" && job.gpus > 0 && !bridge.memory.released.has(job.id),
  );
  for (const job of running.filter(isNew)) {
    // A job Allot could not place again once preempted (over several nodes, not whole ones)
    // is not taken on: it falls back to draining its nodes after refused starts.
    const placed = localRefusal(job, nodeGpus) ?? runningPlacement(job, plan);
    if (typeof placed === "string") {
      refuse(job, placed);
      refused += 1;
      continue;
    }
    byId.set(job.id, job);
    events.push(submittedEvent(job, placed));
  }
  for (const job of jobs.filter((entry) => entry.state === "PENDING" && isNew(entry))) {
    const local = localRefusal(job, nodeGpus);
    if (local) {
      refuse(job, local);
      refused += 1;
      continue;
    }
    byId.set(job.id, job);
    events.push(submittedEvent(job));
  }
  let queued = 0;
  for (let at = 0; at < events.length; at += BATCH) {
    const results = await postBatch(bridge, events.slice(at, at + BATCH));
    for (const result of results) {
      const job = byId.get(result.id.replace(/^slurm-(.+)-submitted$/, "$1"))!;
      if (result.outcome === "refused") {
        refuse(job, result.note ?? "refused by Allot");
        refused += 1;
        continue;
      }
      bridge.mirrored.add(job.id);
      bridge.refused.delete(job.id);
      if (result.outcome === "applied") {
        queued += 1;
        bridge.options.log(mirroredLine(job, result.jobId));
      }
    }
  }
  return { queued, refused, steps };
}

function mirroredLine(job: SlurmJob, allotJobId: string | undefined): string {
  const who = `${job.user}, account ${job.account}, ${plural(job.gpus, "GPU", "GPUs")}`;
  if (job.state !== "RUNNING") return `mirrored job ${job.id} (${who}) as ${allotJobId}`;
  const since = new Date(job.startedAtMs!).toISOString();
  return `adopted running job ${job.id} (${who} on ${job.nodes.join(",")} since ${since}) as ${allotJobId}`;
}

/** Posts one batch of events to the cluster's event route; Allot's answer per event. */
export async function postBatch(bridge: Bridge, events: ExecutorEvent[]): Promise<EventResult[]> {
  const path = `/api/v1/clusters/${encodeURIComponent(bridge.options.cluster)}/events`;
  const answer = await bridge.options.allot.post<{ results: EventResult[] }>(path, { events });
  return answer.results;
}
