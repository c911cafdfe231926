import { createGpuPool, placeJob, type GpuPool } from "@/lib/engine/placement";
import type { ActiveRun, NodeSlice, Priority } from "@/lib/engine/types";
import { chooseBaselineVictims } from "./baseline-victims";
import type { Scenario, SimCluster, SimJob } from "./scenario";
import type {
  PreemptDecision,
  Scheduler,
  SchedulerPlan,
  SchedulerView,
  StartDecision,
} from "./scheduler";

const PRIORITY_LEVEL: Record<Priority, number> = { low: 0, normal: 1, high: 2 };

/** The reason a baseline preemption carries. */
export type BaselinePreemptReason = {
  rule: "baseline-priority";
  byJobId: string;
  byPriority: Priority;
  victimPriority: Priority;
};

type Entry = { job: SimJob; level: number; team: string; cap: number };

function teamOf(budgetId: string): string {
  const slash = budgetId.indexOf("/");
  return slash < 0 ? budgetId : budgetId.slice(0, slash);
}

// Queue order: priority (high first), then submit time, then id.
function isAhead(a: Entry, b: Entry): boolean {
  if (a.level !== b.level) return a.level > b.level;
  if (a.job.submitSec !== b.job.submitSec) return a.job.submitSec < b.job.submitSec;
  return a.job.id < b.job.id;
}

/**
 * The old way (DESIGN section 6): priority levels order the whole queue (then submit time, then
 * id); a job may opt out of preemption; each top-level team has a cap on GPUs held by its
 * non-preemptible jobs (per cluster); preemptible jobs may use any idle GPUs and are preempted by
 * work of a strictly higher priority. Greedy, without reservations: a job that does not fit is
 * skipped and later jobs may start. Uses the job's `baseline` fields only; every run is charged
 * (allocated) and none is protected.
 *
 * Keeps its own sorted queue from `view.newlyPending`, so a pass costs O(queue) cheap steps
 * plus placement work only for jobs that might fit.
 *
 * @example simulateCluster(scenario, scenario.clusters[0], createBaselineScheduler)
 */
export function createBaselineScheduler(scenario: Scenario, cluster: SimCluster): Scheduler {
  const jobsById = new Map<string, SimJob>();
  for (const job of scenario.jobs) if (job.cluster === cluster.name) jobsById.set(job.id, job);
  const entries = new Map<string, Entry>();
  function entryOf(id: string): Entry {
    let entry = entries.get(id);
    if (!entry) {
      const job = jobsById.get(id);
      if (!job) throw new Error(`baseline: unknown job ${id}`);
      const team = teamOf(job.budgetId);
      const cap = scenario.nonPreemptibleGpuCap[team] ?? Infinity;
      entry = { job, level: PRIORITY_LEVEL[job.baselinePriority], team, cap };
      entries.set(id, entry);
    }
    return entry;
  }
  let queue: Entry[] = [];
  let pool: GpuPool | null = null;

  function insert(entry: Entry): void {
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (isAhead(queue[mid] as Entry, entry)) lo = mid + 1;
      else hi = mid;
    }
    queue.splice(lo, 0, entry);
  }

  function plan(view: SchedulerView): SchedulerPlan {
    for (const pending of view.newlyPending) insert(entryOf(pending.id));
    const nodes = view.cluster.nodes;
    if (
      !pool ||
      nodes.some((node, i) => (node.health === "healthy" ? 1 : 0) !== pool?.isUsable[i])
    ) {
      pool = createGpuPool(nodes);
    }
    const gpuPool = pool;
    const free = Int32Array.from(view.freeGpus);
    let freeTotal = 0;
    for (let i = 0; i < free.length; i++) if (gpuPool.isUsable[i]) freeTotal += free[i] ?? 0;
    const starts: StartDecision[] = [];
    const preemptions: PreemptDecision[] = [];
    const held = new Map<string, number>();
    const victimsAtLevel = [0, 0, 0];
    for (const run of view.running) {
      const entry = entryOf(run.jobId);
      if (entry.job.isBaselinePreemptible) victimsAtLevel[entry.level]! += 1;
      else held.set(entry.team, (held.get(entry.team) ?? 0) + run.gpus);
    }
    let victims: ActiveRun[] | null = null;
    const isGone = new Set<string>();
    // Smallest request that failed since the free GPUs last grew: larger ones fail too.
    let failedFreeGpus = Infinity;
    const failedVictimGpus = [Infinity, Infinity, Infinity];
    const started = new Set<Entry>();
    for (const entry of queue) {
      const { job, level } = entry;
      const victimCount =
        (level > 0 ? victimsAtLevel[0]! : 0) + (level > 1 ? victimsAtLevel[1]! : 0);
      if (freeTotal === 0 && victimCount === 0) break;
      const teamHeld = held.get(entry.team) ?? 0;
      if (!job.isBaselinePreemptible && teamHeld + job.gpus > entry.cap) continue;
      let placement: NodeSlice[] | null = null;
      if (freeTotal >= job.gpus && job.gpus < failedFreeGpus) {
        placement = placeJob(gpuPool, job.gpus, undefined, free);
        if (!placement) failedFreeGpus = job.gpus;
      }
      if (!placement && victimCount > 0 && job.gpus < failedVictimGpus[level]!) {
        victims ??= view.running.filter((run) => entryOf(run.jobId).job.isBaselinePreemptible);
        const eligible = victims.filter(
          (run) => !isGone.has(run.id) && entryOf(run.jobId).level < level,
        );
        const chosen = chooseBaselineVictims(
          job.gpus,
          eligible,
          nodes,
          free,
          (id) => entryOf(id).level,
        );
        if (!chosen) failedVictimGpus[level] = job.gpus;
        for (const run of chosen ?? []) {
          const victim = entryOf(run.jobId);
          isGone.add(run.id);
          victimsAtLevel[victim.level]! -= 1;
          for (const slice of run.placement) {
            free[slice.node] = (free[slice.node] ?? 0) + slice.gpus;
            if (gpuPool.isUsable[slice.node]) freeTotal += slice.gpus;
          }
          const reason: BaselinePreemptReason = {
            rule: "baseline-priority",
            byJobId: job.id,
            byPriority: job.baselinePriority,
            victimPriority: victim.job.baselinePriority,
          };
          preemptions.push({ runId: run.id, reason });
        }
        if (chosen) {
          failedFreeGpus = Infinity;
          placement = placeJob(gpuPool, job.gpus, undefined, free);
        }
      }
      if (!placement) continue;
      for (const slice of placement) free[slice.node] = (free[slice.node] ?? 0) - slice.gpus;
      freeTotal -= job.gpus;
      if (!job.isBaselinePreemptible) held.set(entry.team, teamHeld + job.gpus);
      started.add(entry);
      starts.push({ jobId: job.id, placement, isAllocated: true, isProtected: false });
    }
    if (started.size > 0) queue = queue.filter((entry) => !started.has(entry));
    return { starts, preemptions, wakeAtSec: null };
  }
  return { name: "baseline", plan };
}
