import {
  createFairTreeRanker,
  createIncrementalScheduler,
  validateBudgetTree,
  type FairTreeRanking,
  type IncrementalScheduler,
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

/** No start and no preemption: every pending job waits, allocated ones asking for a re-rank. */
function waitPlan(scheduler: IncrementalScheduler, nowSec: number): SchedulerPlan {
  const isWaiting = scheduler.allocatedJobCount > 0;
  return { ...NO_PLAN, wakeAtSec: isWaiting ? nowSec + RERANK_INTERVAL_SEC : null };
}

/**
 * The budget scheduler (docs/contract.md): a thin adapter around the engine's
 * `IncrementalScheduler`, fed the view's deltas and the simulator's incremental usage window;
 * decisions and reasons are the engine's own, and so are the exact shortcuts that pass over a
 * pass shown to decide nothing (`canSkipPass`: nothing queued, nothing free or preemptable, or a
 * quiet pass, ADR 018). Asks to be woken every {@link RERANK_INTERVAL_SEC} while allocated jobs
 * wait for GPUs.
 *
 * @example runSimulation(scenario, createAllocationScheduler)
 */
export function createAllocationScheduler(scenario: Scenario, cluster: SimCluster): Scheduler {
  return createAllocationSchedulerWith({ skipsQuietPasses: true })(scenario, cluster);
}

/** Options of {@link createAllocationSchedulerWith}. */
export type AllocationSchedulerOptions = {
  /** Whether to pass over passes shown to decide nothing (ADR 018); true in `allot`. */
  skipsQuietPasses: boolean;
  /** Called for each pass passed over, for tests and benchmarks. */
  onQuietPass?: (nowSec: number) => void;
};

/**
 * The budget scheduler with its shortcuts chosen: {@link createAllocationScheduler} skips quiet
 * passes; tests compare it with a scheduler that runs every pass.
 *
 * @example runSimulation(scenario, createAllocationSchedulerWith({ skipsQuietPasses: false }))
 */
export function createAllocationSchedulerWith(
  options: AllocationSchedulerOptions,
): (scenario: Scenario, cluster: SimCluster) => Scheduler {
  return (scenario, cluster) => createScheduler(scenario, cluster, options);
}

function createScheduler(
  scenario: Scenario,
  cluster: SimCluster,
  options: AllocationSchedulerOptions,
): Scheduler {
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
  // The leaves' ids by tree node index (null for inner nodes), read together at every pass.
  const leafIdByIndex = tree.nodes.map((node) => (node.isLeaf ? node.id : null));
  // Queue and runs are kept from pass to pass (ADR 012): jobs join as the view reports them and
  // leave as they start; runs come and go with the view's deltas.
  let scheduler: IncrementalScheduler | null = null;

  function plan(view: SchedulerView): SchedulerPlan {
    scheduler ??= createIncrementalScheduler(tree, view.cluster, {
      skipsQuietPasses: options.skipsQuietPasses,
    });
    for (const job of view.newlyPending) scheduler.addJob(job);
    for (const run of view.runsStarted) scheduler.addRun(run);
    for (const run of view.runsEnded) scheduler.endRun(run.id);
    let ranking: FairTreeRanking | null = null;
    const rankNow = (): FairTreeRanking => {
      if (ranking === null) {
        view.usagesOf(leafIdByIndex, leafUsage);
        ranking = rank(leafUsage, { capacityGpus, windowSec: view.cluster.lookbackSec });
      }
      return ranking;
    };
    const skip = scheduler.canSkipPass({
      cluster: view.cluster,
      nowSec: view.nowSec,
      freeGpus: view.freeGpus,
      usableFreeGpus: view.usableFreeGpus,
      ranking: rankNow,
    });
    if (skip === "idle") return NO_PLAN;
    if (skip !== null) {
      if (skip === "quiet") options.onQuietPass?.(view.nowSec);
      return waitPlan(scheduler, view.nowSec);
    }
    const result = scheduler.pass({
      cluster: view.cluster,
      nowSec: view.nowSec,
      ranking: rankNow(),
      describeWaits: false,
    });
    const isWaitingForGpus = result.waitingCounts.allocated > 0;
    // The engine's decisions are the plan's as they are: they carry the fields the simulator
    // reads (job, placement, kind and reason of a start; run and reason of a preemption).
    return {
      starts: result.starts,
      preemptions: result.preemptions,
      wakeAtSec: isWaitingForGpus ? view.nowSec + RERANK_INTERVAL_SEC : null,
    };
  }
  return { name: "allocation", plan };
}
