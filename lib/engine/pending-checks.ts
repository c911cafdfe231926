import { checkChargeableBudget } from "./budget-tree";
import { validateContract } from "./contract";
import { createFitCheck } from "./placement";
import type { WaitDecision } from "./reasons";
import type { BudgetTree, ClusterSpec, PendingJob } from "./types";

/**
 * Splits pending jobs into those that may start and those that never can as submitted
 * (internal to the pass): an unknown or inner budget, an invalid contract (GPUs not a positive
 * integer, minimum runtime negative or above the cluster maximum), or more GPUs than the cluster
 * could ever place, even with every node healthy and empty. Errors keep the input order.
 *
 * @example screenPendingJobs(pending, tree, cluster).errors.map((wait) => wait.reason.rule)
 */
export function screenPendingJobs(
  pending: readonly PendingJob[],
  tree: BudgetTree,
  cluster: ClusterSpec,
): { valid: PendingJob[]; errors: WaitDecision[] } {
  const clusterGpus = cluster.nodes.reduce((sum, node) => sum + node.gpus, 0);
  const nodeSizeGpus = cluster.nodes.reduce((size, node) => Math.max(size, node.gpus), 0);
  const canEverPlace = createFitCheck(cluster.nodes);
  const errors: WaitDecision[] = [];
  const everFits = new Map<number, boolean>();
  const valid: PendingJob[] = [];
  const isLeafBudget = new Map<string, boolean>();
  for (const job of pending) {
    let isLeaf = isLeafBudget.get(job.budgetId);
    if (isLeaf === undefined) {
      isLeaf = checkChargeableBudget(tree, job.budgetId).ok;
      isLeafBudget.set(job.budgetId, isLeaf);
    }
    const isContractValid =
      Number.isInteger(job.gpus) &&
      job.gpus > 0 &&
      job.minRuntimeSec >= 0 &&
      job.minRuntimeSec <= cluster.maxMinRuntimeSec;
    if (!isLeaf || !isContractValid) {
      const budget = checkChargeableBudget(tree, job.budgetId);
      const contract = validateContract(job, cluster.maxMinRuntimeSec);
      const issues = [...(budget.ok ? [] : budget.issues), ...(contract.ok ? [] : contract.issues)];
      errors.push({
        jobId: job.id,
        budgetId: job.budgetId,
        isError: true,
        reason: {
          rule: "error-invalid-job",
          issues: issues.map((issue) => ({ ...issue, id: job.id })),
        },
      });
      continue;
    }
    let fits = everFits.get(job.gpus);
    if (fits === undefined) {
      fits = canEverPlace(job.gpus);
      everFits.set(job.gpus, fits);
    }
    if (!fits) {
      errors.push({
        jobId: job.id,
        budgetId: job.budgetId,
        isError: true,
        reason: {
          rule: "error-larger-than-cluster",
          needGpus: job.gpus,
          clusterGpus,
          nodeSizeGpus,
        },
      });
      continue;
    }
    valid.push(job);
  }
  return { valid, errors };
}
