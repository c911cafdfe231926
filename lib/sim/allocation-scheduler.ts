import {
  createFairTreeRanker,
  createStandingQueue,
  createStandingRuns,
  runSchedulePass,
  validateBudgetTree,
  type StandingQueue,
  type StandingRuns,
} from "../engine";
import type { Scenario, SimCluster } from "./scenario";
import type { Scheduler, SchedulerPlan, SchedulerView } from "./scheduler";

/**
 * How often, in seconds, a pass runs again while allocated jobs wait on GPUs held by others:
 * ranks shift continuously as usage accrues and leaves the window, so a waiting job may come to
 * outrank an unprotected run without any event. SLURM recomputes priorities every 5 minutes
 * (PriorityCalcPeriod) by default; we do the same.
 */
export const RERANK_INTERVAL_SEC = 300;

const NO_PLAN: SchedulerPlan = { starts: [], preemptions: [], wakeAtSec: null };

/** Whether a node is draining, and whether a healthy node has a free GPU: one look at each. */
function nodesAt(view: SchedulerView): { isDraining: boolean; hasFreeGpu: boolean } {
  let isDraining = false;
  let hasFreeGpu = false;
  const { nodes } = view.cluster;
  for (let i = 0; i < nodes.length; i++) {
    const health = nodes[i]!.health;
    if (health === "draining") isDraining = true;
    else if (health === "healthy" && (view.freeGpus[i] ?? 0) > 0) hasFreeGpu = true;
  }
  return { isDraining, hasFreeGpu };
}

/** True when every run is allocated and protected. */
function isAllProtected(nowSec: number, runs: StandingRuns): boolean {
  return !runs.some((run) => !run.isAllocated || nowSec >= run.protectedUntilSec);
}

/**
 * The budget scheduler (DESIGN sections 3-4): a thin adapter around the engine's
 * `runSchedulePass`, fed the simulator's incremental usage window; decisions and reasons are the
 * engine's own. One shortcut, exact: no pass when nothing is free or preemptable (no free GPU on
 * a healthy node, no unallocated run, every allocated run protected), since the engine could
 * then neither start nor preempt anything. Asks to be woken every {@link RERANK_INTERVAL_SEC}
 * while allocated jobs wait for GPUs.
 *
 * @example runSimulation(scenario, createAllocationScheduler)
 */
export function createAllocationScheduler(scenario: Scenario, cluster: SimCluster): Scheduler {
  const checked = validateBudgetTree(scenario.tree);
  if (!checked.ok) {
    const problems = checked.issues.map((issue) => issue.message).join("; ");
    throw new Error(`allocation: the budget tree is invalid: ${problems}`);
  }
  const tree = checked.value;
  const capacityGpus = cluster.nodes * cluster.gpusPerNode;
  // Ranked once per pass on the leaves' usage, read one leaf at a time (ADR 014).
  const rank = createFairTreeRanker(tree);
  const leafUsage = new Float64Array(tree.nodes.length);
  const leafIndices = tree.nodes.flatMap((node, index) => (node.isLeaf ? [index] : []));
  // Queue and runs are kept from pass to pass (ADR 012): jobs join as the view reports them and
  // leave as they start; runs come and go with the view's deltas.
  let queue: StandingQueue | null = null;
  let runs: StandingRuns | null = null;

  function plan(view: SchedulerView): SchedulerPlan {
    queue ??= createStandingQueue(tree, view.cluster);
    runs ??= createStandingRuns(view.cluster.nodes);
    for (const job of view.newlyPending) queue.add(job);
    for (const run of view.runsStarted) runs.add(run);
    for (const run of view.runsEnded) runs.remove(run.id);
    const { isDraining, hasFreeGpu } = nodesAt(view);
    if (queue.size === 0 && !isDraining) return NO_PLAN;
    // Nothing free or preemptable: the engine could neither start nor preempt anything.
    if (!hasFreeGpu && isAllProtected(view.nowSec, runs)) {
      // Every pending job would wait; allocated ones would ask for a re-rank.
      const isWaiting = queue.allocatedCount > 0;
      return { ...NO_PLAN, wakeAtSec: isWaiting ? view.nowSec + RERANK_INTERVAL_SEC : null };
    }
    for (const index of leafIndices) leafUsage[index] = view.usageOf(tree.nodes[index]!.id);
    const ranking = rank(leafUsage, { capacityGpus, windowSec: view.cluster.lookbackSec });
    const result = runSchedulePass({
      cluster: view.cluster,
      nowSec: view.nowSec,
      tree,
      ranking,
      runs,
      pending: queue,
      describeWaits: false,
    });
    for (const start of result.starts) queue.remove(start.jobId);
    const isWaitingForGpus = result.waitingCounts.allocated > 0;
    return {
      starts: result.starts.map((start) => ({
        jobId: start.jobId,
        placement: start.placement,
        isAllocated: start.isAllocated,
        reason: start.reason,
      })),
      preemptions: result.preemptions.map((preemption) => ({
        runId: preemption.runId,
        reason: preemption.reason,
      })),
      wakeAtSec: isWaitingForGpus ? view.nowSec + RERANK_INTERVAL_SEC : null,
    };
  }
  return { name: "allocation", plan };
}
