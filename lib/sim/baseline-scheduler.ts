import { createGpuPool, placeJob, type GpuPool } from "../engine/placement";
import type { ActiveRun, ClusterNodeState, NodeSlice, PendingJob, Priority } from "../engine/types";
import { createBaselineQueue, PRIORITY_LEVEL } from "./baseline-queue";
import { createVictimChooser, createVictimPool } from "./baseline-victims";
import type { Scenario, SimCluster, SimJob } from "./scenario";
import type {
  PreemptDecision,
  Scheduler,
  SchedulerPlan,
  SchedulerView,
  StartDecision,
} from "./scheduler";

/** The reason a baseline preemption carries. */
export type BaselinePreemptReason = {
  rule: "baseline-priority";
  byJobId: string;
  byPriority: Priority;
  victimPriority: Priority;
};

/**
 * The free GPUs of a pass: a working copy of the view's, their total on usable (healthy) nodes,
 * and upper bounds that let a pass skip a placement that must fail.
 */
type PassCapacity = {
  free: Int32Array;
  freeTotal: number;
  /** At least the most free GPUs on one usable node. */
  maxFreeOnNode: number;
  /** At least the number of usable nodes of the largest size that are wholly free. */
  wholeFreeNodes: number;
};

/** Fills `capacity` from the view's free GPUs, in one pass over the nodes. */
function measureCapacity(pool: GpuPool, freeGpus: readonly number[], capacity: PassCapacity): void {
  const { free } = capacity;
  let freeTotal = 0;
  let maxFreeOnNode = 0;
  let wholeFreeNodes = 0;
  for (let i = 0; i < free.length; i++) {
    const gpus = freeGpus[i] ?? 0;
    free[i] = gpus;
    if (!pool.isUsable[i]) continue;
    freeTotal += gpus;
    if (gpus > maxFreeOnNode) maxFreeOnNode = gpus;
    if (gpus === pool.nodeSizeGpus && pool.capacity[i] === gpus) wholeFreeNodes++;
  }
  capacity.freeTotal = freeTotal;
  capacity.maxFreeOnNode = maxFreeOnNode;
  capacity.wholeFreeNodes = wholeFreeNodes;
}

/**
 * False when `placeJob` must fail (not enough wholly free nodes, or no node with room for the
 * part on one node); true when it may succeed. See placementShape (ADR 010).
 */
function mayPlace(pool: GpuPool, gpus: number, capacity: PassCapacity): boolean {
  const size = pool.nodeSizeGpus;
  if (gpus <= size) return capacity.maxFreeOnNode >= gpus;
  const remainder = gpus % size;
  return (
    capacity.wholeFreeNodes >= Math.floor(gpus / size) &&
    (remainder === 0 || capacity.maxFreeOnNode >= remainder)
  );
}

/**
 * Whether a node's health changed since the pool was made (usable = healthy). The simulator
 * replaces a node's object when its health changes, so unchanged objects are skipped unread.
 */
function isPoolStale(
  pool: GpuPool,
  nodes: readonly ClusterNodeState[],
  checked: ClusterNodeState[],
): boolean {
  let isStale = false;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as ClusterNodeState;
    if (node === checked[i]) continue;
    checked[i] = node;
    if ((node.health === "healthy" ? 1 : 0) !== pool.isUsable[i]) isStale = true;
  }
  return isStale;
}

/** Jobs by submit time, ties in list order (a stable sort; no sort when already in order). */
function listInSubmitOrder(jobs: SimJob[]): SimJob[] {
  const isSorted = jobs.every(
    (job, i) => i === 0 || (jobs[i - 1] as SimJob).submitSec <= job.submitSec,
  );
  return isSorted ? jobs : jobs.sort((a, b) => a.submitSec - b.submitSec);
}

/**
 * The old way (docs/simulator.md): priority levels order the whole queue (then submit time, then
 * id); a job may opt out of preemption; each top-level team has a cap on GPUs held by its
 * non-preemptible jobs (per cluster); preemptible jobs may use any idle GPUs and are preempted by
 * work of a strictly higher priority. Greedy, without reservations: a job that does not fit is
 * skipped and later jobs may start. Uses the job's `baseline` fields only; every run is charged
 * (allocated) and none is protected.
 *
 * Speed: the queue is kept in buckets of jobs that succeed or fail together (same level, GPUs,
 * team, preemptibility), walked in queue order (see createBaselineQueue); a pass costs about
 * O(buckets + starts x buckets), not O(queue). Preemptible runs are kept from the view's
 * `runsStarted` and `runsEnded`, so listing victims never scans every run.
 *
 * @example simulateCluster(scenario, scenario.clusters[0], createBaselineScheduler)
 */
export function createBaselineScheduler(scenario: Scenario, cluster: SimCluster): Scheduler {
  // Jobs are found without a map over all of the cluster's (a year has a million): arrivals come
  // in submit order, a requeued job has just ended a run, and a run's job is known from the plan
  // that started it. Each guess is checked by id; a map by id is built only if one misses.
  const arrivals = listInSubmitOrder(scenario.jobs.filter((job) => job.cluster === cluster.name));
  let arrived = 0;
  let jobsById: Map<string, SimJob> | null = null;
  const endedJobs = new Map<string, SimJob>();
  const queue = createBaselineQueue(scenario.nonPreemptibleGpuCap);
  let pool: GpuPool | null = null;
  // The node objects last compared with the pool's usable flags.
  const checkedNodes: ClusterNodeState[] = [];
  // Working copy of the free GPUs and their bounds, reused from pass to pass.
  const capacity: PassCapacity = {
    free: new Int32Array(0),
    freeTotal: 0,
    maxFreeOnNode: 0,
    wholeFreeNodes: 0,
  };
  // Running totals kept from starts and `view.runsEnded` (with the teams' held GPUs), so a pass
  // never scans every run.
  const preemptibleRunsAtLevel = [0, 0, 0];
  // Preemptible runs below the top level (only those can be victims), from `view.runsStarted`.
  const victimPool = createVictimPool(PRIORITY_LEVEL.high);
  const chooseVictims = createVictimChooser(cluster.nodes);
  // The job of every live run, and the jobs this pass starts (the next view's `runsStarted`).
  const jobByRun = new Map<ActiveRun, SimJob>();
  const startedJobs: SimJob[] = [];
  // Victims left in this pass, reused from pass to pass.
  const victimsAtLevel = [0, 0, 0];
  function track(job: SimJob, gpus: number): void {
    if (job.isBaselinePreemptible) {
      preemptibleRunsAtLevel[PRIORITY_LEVEL[job.baselinePriority]]! += Math.sign(gpus);
    } else {
      queue.teamOf(job).heldGpus += gpus;
    }
  }
  function jobOf(id: string): SimJob {
    jobsById ??= new Map(arrivals.map((job) => [job.id, job]));
    const job = jobsById.get(id);
    if (!job) throw new Error(`baseline: unknown job ${id}`);
    return job;
  }
  function pendingJobOf(pending: PendingJob): SimJob {
    const next = arrivals[arrived];
    if (next?.id === pending.id) {
      arrived++;
      return next;
    }
    return endedJobs.get(pending.id) ?? jobOf(pending.id);
  }

  function plan(view: SchedulerView): SchedulerPlan {
    const nodes = view.cluster.nodes;
    if (!pool || isPoolStale(pool, nodes, checkedNodes)) pool = createGpuPool(nodes);
    const gpuPool = pool;
    if (capacity.free.length !== view.freeGpus.length) {
      capacity.free = new Int32Array(view.freeGpus.length);
    }
    measureCapacity(gpuPool, view.freeGpus, capacity);
    const { free } = capacity;
    let { freeTotal } = capacity;
    const starts: StartDecision[] = [];
    const preemptions: PreemptDecision[] = [];
    // The runs started are the previous plan's starts, in order: their jobs are known without a
    // lookup in the map of every job (checked, so a differing simulator stays exact).
    view.runsStarted.forEach((run, i) => {
      const known = startedJobs[i];
      const job = known?.id === run.jobId ? known : jobOf(run.jobId);
      jobByRun.set(run, job);
      if (job.isBaselinePreemptible) victimPool.add(run, PRIORITY_LEVEL[job.baselinePriority]);
    });
    startedJobs.length = 0;
    endedJobs.clear();
    for (const run of view.runsEnded) {
      const job = jobByRun.get(run) ?? jobOf(run.jobId);
      jobByRun.delete(run);
      endedJobs.set(job.id, job);
      track(job, -run.gpus);
      if (job.isBaselinePreemptible) victimPool.remove(run, PRIORITY_LEVEL[job.baselinePriority]);
    }
    for (const pending of view.newlyPending) queue.add(pendingJobOf(pending));
    // Victims of this pass: the runs of the view, less those it preempts.
    for (let level = 0; level < victimsAtLevel.length; level++) {
      victimsAtLevel[level] = preemptibleRunsAtLevel[level]!;
    }
    // Eligible victims per preemptor level, until the next preemption changes them.
    const eligibleByLevel: (ActiveRun[] | undefined)[] = [];
    const isGone = new Set<string>();
    // Smallest request that failed since the free GPUs last grew: larger ones fail too.
    let failedFreeGpus = Infinity;
    const failedVictimGpus = [Infinity, Infinity, Infinity];
    // With nothing preemptible, a bucket wider than the free GPUs cannot start in this pass.
    const canPreempt = victimsAtLevel[0]! + victimsAtLevel[1]! > 0;
    if (freeTotal === 0 && !canPreempt) return { starts, preemptions, wakeAtSec: null };
    // With nothing preemptible, free GPUs only shrink in this pass.
    const maxGpus = canPreempt ? Infinity : freeTotal;

    queue.beginWalk();
    for (let bucket = queue.next(); bucket; bucket = queue.next()) {
      if (bucket.gpus > maxGpus) continue;
      const { level } = bucket;
      const job = bucket.jobs[bucket.head] as SimJob;
      const victimCount =
        (level > 0 ? victimsAtLevel[0]! : 0) + (level > 1 ? victimsAtLevel[1]! : 0);
      // Heads come by descending level, so no later job can preempt either.
      if (freeTotal === 0 && victimCount === 0) break;
      // The team's held GPUs count this pass's starts already (track below).
      const { team } = bucket;
      if (!bucket.isPreemptible && team.heldGpus + job.gpus > team.capGpus) continue;
      let placement: NodeSlice[] | null = null;
      if (freeTotal >= job.gpus && job.gpus < failedFreeGpus) {
        placement = mayPlace(gpuPool, job.gpus, capacity)
          ? placeJob(gpuPool, job.gpus, undefined, free)
          : null;
        if (!placement) failedFreeGpus = job.gpus;
      }
      if (!placement && victimCount > 0 && job.gpus < failedVictimGpus[level]!) {
        let eligible = eligibleByLevel[level];
        if (!eligible) {
          eligible = victimPool.listBelow(level).filter((run) => !isGone.has(run.id));
          eligibleByLevel[level] = eligible;
        }
        const chosen = chooseVictims(job.gpus, eligible, nodes, free);
        if (!chosen) failedVictimGpus[level] = job.gpus;
        else eligibleByLevel.length = 0;
        for (const run of chosen ?? []) {
          const victim = jobByRun.get(run) ?? jobOf(run.jobId);
          isGone.add(run.id);
          victimsAtLevel[PRIORITY_LEVEL[victim.baselinePriority]]! -= 1;
          for (const slice of run.placement) {
            free[slice.node] = (free[slice.node] ?? 0) + slice.gpus;
            if (gpuPool.isUsable[slice.node]) freeTotal += slice.gpus;
          }
          const reason: BaselinePreemptReason = {
            rule: "baseline-priority",
            byJobId: job.id,
            byPriority: job.baselinePriority,
            victimPriority: victim.baselinePriority,
          };
          preemptions.push({ runId: run.id, reason });
        }
        if (chosen) {
          // Freed GPUs can raise the bounds: stop trusting them for the rest of the pass.
          capacity.maxFreeOnNode = Infinity;
          capacity.wholeFreeNodes = Infinity;
          failedFreeGpus = Infinity;
          placement = placeJob(gpuPool, job.gpus, undefined, free);
        }
      }
      if (!placement) continue;
      for (const slice of placement) free[slice.node] = (free[slice.node] ?? 0) - slice.gpus;
      freeTotal -= job.gpus;
      starts.push({ jobId: job.id, placement, isAllocated: true, isProtected: false });
      startedJobs.push(job);
      track(job, job.gpus);
      queue.takeHead(bucket);
    }
    queue.endWalk();
    return { starts, preemptions, wakeAtSec: null };
  }
  return { name: "baseline", plan };
}
