import type { ActiveRun, NodeSlice, PendingJob, Priority } from "@/lib/engine/types";
import { placeOnFreeGpus } from "./placement";
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

function teamOf(budgetId: string): string {
  const slash = budgetId.indexOf("/");
  return slash < 0 ? budgetId : budgetId.slice(0, slash);
}

/**
 * The old way (DESIGN section 6): priority levels order the whole queue (then submit time, then
 * id); a job may opt out of preemption; each top-level team has a cap on GPUs held by its
 * non-preemptible jobs; preemptible jobs may use any idle GPUs and are preempted by work of a
 * strictly higher priority. Greedy: a job that does not fit is skipped and later jobs may start
 * (no reservations), so wide jobs can wait long behind a stream of narrow ones, as in many real
 * clusters without backfill reservations. It uses the job's `baseline` fields only.
 *
 * @example simulateCluster(scenario, scenario.clusters[0], createBaselineScheduler)
 */
export function createBaselineScheduler(scenario: Scenario, _cluster: SimCluster): Scheduler {
  const jobsById = new Map<string, SimJob>(scenario.jobs.map((job) => [job.id, job]));
  const caps = scenario.nonPreemptibleGpuCap;
  function jobOf(id: string): SimJob {
    const job = jobsById.get(id);
    if (!job) throw new Error(`baseline: unknown job ${id}`);
    return job;
  }
  function level(id: string): number {
    return PRIORITY_LEVEL[jobOf(id).baselinePriority];
  }
  function byQueueOrder(a: PendingJob, b: PendingJob): number {
    const diff = level(b.id) - level(a.id);
    if (diff !== 0) return diff;
    if (a.submitSec !== b.submitSec) return a.submitSec - b.submitSec;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  }

  function plan(view: SchedulerView): SchedulerPlan {
    const starts: StartDecision[] = [];
    const preemptions: PreemptDecision[] = [];
    const free = [...view.freeGpus];
    const nodes = view.cluster.nodes;
    let freeTotal = 0;
    for (let i = 0; i < nodes.length; i++)
      if (nodes[i]?.health === "healthy") freeTotal += free[i] ?? 0;
    const heldNonPreemptible = new Map<string, number>();
    const victims: ActiveRun[] = [];
    for (const run of view.running) {
      const job = jobOf(run.jobId);
      if (job.isBaselinePreemptible) victims.push(run);
      else {
        const team = teamOf(run.budgetId);
        heldNonPreemptible.set(team, (heldNonPreemptible.get(team) ?? 0) + run.gpus);
      }
    }
    // Lowest priority first, then latest start: the cheapest victims come first.
    victims.sort((a, b) => level(a.jobId) - level(b.jobId) || b.startSec - a.startSec);
    const isGone = new Set<string>();
    const victimsAtLevel = [0, 0, 0];
    for (const run of victims) victimsAtLevel[level(run.jobId)]! += 1;
    const queue = [...view.pending].sort(byQueueOrder);
    for (const pendingJob of queue) {
      const job = jobOf(pendingJob.id);
      const jobLevel = PRIORITY_LEVEL[job.baselinePriority];
      let victimCount = 0;
      for (let l = 0; l < jobLevel; l++) victimCount += victimsAtLevel[l] ?? 0;
      const hasVictims = victimCount > 0;
      if (freeTotal === 0 && !hasVictims) break;
      const team = teamOf(job.budgetId);
      const cap = caps[team];
      const held = heldNonPreemptible.get(team) ?? 0;
      if (!job.isBaselinePreemptible && cap !== undefined && held + job.gpus > cap) continue;
      let placement = freeTotal >= job.gpus ? placeOnFreeGpus(job.gpus, nodes, free) : null;
      if (!placement && hasVictims) {
        const chosen = chooseVictims(job, jobLevel);
        if (chosen) {
          for (const run of chosen) {
            isGone.add(run.id);
            victimsAtLevel[level(run.jobId)]! -= 1;
            release(run.placement);
            const reason: BaselinePreemptReason = {
              rule: "baseline-priority",
              byJobId: job.id,
              byPriority: job.baselinePriority,
              victimPriority: jobOf(run.jobId).baselinePriority,
            };
            preemptions.push({ runId: run.id, reason });
          }
          placement = placeOnFreeGpus(job.gpus, nodes, free);
        }
      }
      if (!placement) continue;
      for (const slice of placement) free[slice.node] = (free[slice.node] ?? 0) - slice.gpus;
      freeTotal -= job.gpus;
      if (!job.isBaselinePreemptible) heldNonPreemptible.set(team, held + job.gpus);
      // Every baseline run is charged to its team; none is protected.
      starts.push({ jobId: job.id, placement, isAllocated: true, isProtected: false });
    }
    return { starts, preemptions, wakeAtSec: null };

    function release(placement: readonly NodeSlice[]): void {
      for (const slice of placement) {
        free[slice.node] = (free[slice.node] ?? 0) + slice.gpus;
        if (nodes[slice.node]?.health === "healthy") freeTotal += slice.gpus;
      }
    }

    // Victims on the fewest nodes: try each node (or set of whole nodes) and keep the choice
    // that preempts the fewest GPUs.
    function chooseVictims(job: SimJob, jobLevel: number): ActiveRun[] | null {
      const eligible = victims.filter((run) => !isGone.has(run.id) && level(run.jobId) < jobLevel);
      const byNode = new Map<number, ActiveRun[]>();
      for (const run of eligible) {
        for (const slice of run.placement) {
          const list = byNode.get(slice.node) ?? [];
          list.push(run);
          byNode.set(slice.node, list);
        }
      }
      const perNode = nodes[0]?.gpus ?? 0;
      if (job.gpus <= perNode) {
        let best: ActiveRun[] | null = null;
        let bestGpus = Infinity;
        for (const [node, runs] of byNode) {
          if (nodes[node]?.health !== "healthy") continue;
          let gained = free[node] ?? 0;
          const picked: ActiveRun[] = [];
          let pickedGpus = 0;
          for (const run of runs) {
            if (gained >= job.gpus) break;
            picked.push(run);
            pickedGpus += run.gpus;
            gained += run.placement.find((slice) => slice.node === node)?.gpus ?? 0;
          }
          if (gained >= job.gpus && pickedGpus < bestGpus) {
            best = picked;
            bestGpus = pickedGpus;
          }
        }
        return best;
      }
      const needNodes = Math.ceil(job.gpus / perNode);
      const candidates: { node: number; runs: ActiveRun[]; busy: number }[] = [];
      for (let node = 0; node < nodes.length; node++) {
        if (nodes[node]?.health !== "healthy") continue;
        const runs = byNode.get(node) ?? [];
        const freed = runs.reduce(
          (sum, run) => sum + (run.placement.find((s) => s.node === node)?.gpus ?? 0),
          0,
        );
        if ((free[node] ?? 0) + freed === perNode) candidates.push({ node, runs, busy: freed });
      }
      if (candidates.length < needNodes) return null;
      candidates.sort((a, b) => a.busy - b.busy || a.node - b.node);
      const picked = new Set<ActiveRun>();
      for (const candidate of candidates.slice(0, needNodes))
        for (const run of candidate.runs) picked.add(run);
      return [...picked];
    }
  }
  return { name: "baseline", plan };
}
