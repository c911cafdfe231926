import {
  getBudgetNode,
  isAllocatedRun,
  rankBudgets,
  runSchedulePass,
  validateBudgetTree,
} from "../engine";
import type { ActiveRun } from "../engine/types";
import { createAllocationQueue, type AllocatedTest } from "./allocation-queue";
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

/**
 * GPUs each budget could get in this pass at most: free GPUs on healthy nodes, plus unallocated
 * runs, plus unprotected allocated runs of budgets ranked strictly below it.
 */
function measureReach(view: SchedulerView, rankOf: (budgetId: string) => number) {
  let free = 0;
  view.cluster.nodes.forEach((node, i) => {
    if (node.health === "healthy") free += view.freeGpus[i] ?? 0;
  });
  let unallocated = 0;
  const unprotectedByRank = new Map<number, number>();
  for (const run of view.running as readonly ActiveRun[]) {
    if (!run.isAllocated) unallocated += run.gpus;
    else if (view.nowSec >= run.protectedUntilSec) {
      const rank = rankOf(run.budgetId);
      unprotectedByRank.set(rank, (unprotectedByRank.get(rank) ?? 0) + run.gpus);
    }
  }
  const base = free + unallocated;
  const reachByRank = new Map<number, number>();
  return {
    isIdle: base === 0 && unprotectedByRank.size === 0,
    reachOf(budgetId: string): number {
      const rank = rankOf(budgetId);
      let reach = reachByRank.get(rank);
      if (reach === undefined) {
        reach = base;
        for (const [runRank, gpus] of unprotectedByRank) if (runRank > rank) reach += gpus;
        reachByRank.set(rank, reach);
      }
      return reach;
    },
  };
}

/**
 * The budget scheduler (DESIGN sections 3-4): a thin adapter around the engine's
 * `runSchedulePass`, fed the simulator's incremental usage window. Reasons are kept as the
 * engine gives them. Two shortcuts keep long traces fast without changing decisions: no pass
 * when nothing is free or preemptable (every run protected, no free GPU), and the engine gets
 * only the pending jobs that could start (see {@link createAllocationQueue}). Asks to be woken
 * every {@link RERANK_INTERVAL_SEC} while allocated jobs wait for GPUs.
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
  const queue = createAllocationQueue();
  const capacityGpus = cluster.nodes * cluster.gpusPerNode;
  const isAllocated: AllocatedTest = (budgetId, hasMinRuntime) =>
    hasMinRuntime && isAllocatedRun(1, getBudgetNode(tree, budgetId)?.effectiveShare ?? 0);

  function plan(view: SchedulerView): SchedulerPlan {
    for (const job of view.newlyPending) queue.add(job);
    if (queue.size === 0 && !view.cluster.nodes.some((node) => node.health === "draining")) {
      return NO_PLAN;
    }
    const ranking = rankBudgets(tree, view.usageByLeaf, {
      capacityGpus,
      windowSec: view.cluster.lookbackSec,
    });
    const unranked = ranking.leafCount + 1;
    const rankOf = (budgetId: string): number => ranking.rankByBudgetId[budgetId] ?? unranked;
    const reach = measureReach(view, rankOf);
    // Nothing free or preemptable: every pending job would wait; allocated ones ask for a re-rank.
    if (reach.isIdle) {
      const wakeAtSec = queue.hasAllocated(isAllocated) ? view.nowSec + RERANK_INTERVAL_SEC : null;
      return { ...NO_PLAN, wakeAtSec };
    }
    const selection = queue.select(reach.reachOf, isAllocated);
    const pending = selection.jobs;
    const result = runSchedulePass({
      cluster: view.cluster,
      nowSec: view.nowSec,
      tree,
      ranking,
      leafUsage: view.usageByLeaf,
      runs: view.running,
      pending,
    });
    for (const start of result.starts) queue.remove(start.jobId);
    // Allocated jobs left out of the pass would have waited for GPUs too.
    const isWaitingForGpus =
      selection.hasAllocatedLeftOut ||
      result.waiting.some(
        (wait) => wait.reason.rule === "wait-resources" || wait.reason.rule === "wait-reservation",
      );
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
