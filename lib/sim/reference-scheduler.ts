import {
  rankBudgets,
  runReferencePass,
  validateBudgetTree,
  type BudgetTree,
  type SchedulePassResult,
} from "../engine";
import { RERANK_INTERVAL_SEC } from "./allocation-scheduler";
import type { Scenario, SimCluster } from "./scenario";
import type { Scheduler, SchedulerView } from "./scheduler";

/**
 * The reference pass on one moment of the simulator: the view's lists, ranked on its usage
 * window. Shared with the property test that holds the fast path to it.
 *
 * @example runReferenceOnView(tree, view).starts
 */
export function runReferenceOnView(tree: BudgetTree, view: SchedulerView): SchedulePassResult {
  const ranking = rankBudgets(tree, view.usageByLeaf, {
    capacityGpus: view.cluster.nodes.reduce((sum, node) => sum + node.gpus, 0),
    windowSec: view.cluster.lookbackSec,
  });
  return runReferencePass({
    cluster: view.cluster,
    nowSec: view.nowSec,
    tree,
    ranking,
    runs: view.running,
    pending: view.pending,
    describeWaits: false,
  });
}

/**
 * The budget policy decided by the engine's reference pass (`runReferencePass`) at every pass,
 * on the view's whole lists: the same decisions as `allocation` (property-tested), several
 * times slower. It is where a new rule is tried before it is written into the fast pass: change
 * the reference pass, then `allot simulate --scheduler baseline,reference` or
 * `scripts/headline.ts --policy reference` (docs/simulations.md).
 *
 * @example runSimulation(scenario, createReferenceScheduler)
 */
export function createReferenceScheduler(scenario: Scenario, _cluster: SimCluster): Scheduler {
  const checked = validateBudgetTree(scenario.tree);
  if (!checked.ok) {
    const problems = checked.issues.map((issue) => issue.message).join("; ");
    throw new Error(`reference: the budget tree is invalid: ${problems}`);
  }
  const tree = checked.value;
  return {
    name: "reference",
    plan(view) {
      const result = runReferenceOnView(tree, view);
      const isWaitingForGpus = result.waitingCounts.allocated > 0;
      return {
        starts: result.starts,
        preemptions: result.preemptions,
        wakeAtSec: isWaitingForGpus ? view.nowSec + RERANK_INTERVAL_SEC : null,
      };
    },
  };
}
