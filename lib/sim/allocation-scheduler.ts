import { runSchedulePass, validateBudgetTree } from "../engine";
import type { Scenario, SimCluster } from "./scenario";
import type { Scheduler, SchedulerPlan, SchedulerView } from "./scheduler";

/**
 * How often, in seconds, a pass runs again while allocated jobs wait on GPUs held by others:
 * ranks shift continuously as usage accrues and leaves the window, so a waiting job may come to
 * outrank an unprotected run without any event. SLURM recomputes priorities every 5 minutes
 * (PriorityCalcPeriod) by default; we do the same.
 */
export const RERANK_INTERVAL_SEC = 300;

/**
 * The budget scheduler (DESIGN sections 3-4): a thin adapter around the engine's
 * `runSchedulePass`, fed the simulator's incremental usage window. Reasons are kept as the
 * engine gives them. Asks to be woken every {@link RERANK_INTERVAL_SEC} while allocated jobs
 * wait for GPUs, since rank changes are not events.
 *
 * @example runSimulation(scenario, createAllocationScheduler)
 */
export function createAllocationScheduler(scenario: Scenario, _cluster: SimCluster): Scheduler {
  const checked = validateBudgetTree(scenario.tree);
  if (!checked.ok) {
    const problems = checked.issues.map((issue) => issue.message).join("; ");
    throw new Error(`allocation: the budget tree is invalid: ${problems}`);
  }
  const tree = checked.value;
  function plan(view: SchedulerView): SchedulerPlan {
    const result = runSchedulePass({
      cluster: view.cluster,
      nowSec: view.nowSec,
      tree,
      leafUsage: view.usageByLeaf,
      runs: view.running,
      pending: view.pending,
    });
    const isWaitingForGpus = result.waiting.some(
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
