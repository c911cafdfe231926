import { checkChargeableBudget } from "./budget-tree";
import { validateContract } from "./contract";
import { createFitCheck } from "./placement";
import type { WaitDecision } from "./reasons";
import type { BudgetTree, ClusterSpec, PendingJob } from "./types";

/**
 * A screen for pending jobs that can never start as submitted (internal to the engine): an
 * unknown or inner budget, an invalid contract (GPUs not a positive integer, minimum runtime
 * negative or above the cluster maximum), or more GPUs than the cluster could ever place, even
 * with every node healthy and empty. Returns the error to report, or null for a job that may
 * start. Answers per budget and per size are remembered.
 *
 * @example createJobScreen(tree, cluster)(job)?.reason.rule // "error-larger-than-cluster"
 */
export function createJobScreen(
  tree: BudgetTree,
  cluster: ClusterSpec,
): (job: PendingJob) => WaitDecision | null {
  const clusterGpus = cluster.nodes.reduce((sum, node) => sum + node.gpus, 0);
  const nodeSizeGpus = cluster.nodes.reduce((size, node) => Math.max(size, node.gpus), 0);
  const canEverPlace = createFitCheck(cluster.nodes);
  const everFits = new Map<number, boolean>();
  const isLeafBudget = new Map<string, boolean>();
  return (job) => {
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
      return {
        jobId: job.id,
        budgetId: job.budgetId,
        isError: true,
        reason: {
          rule: "error-invalid-job",
          issues: issues.map((issue) => ({ ...issue, id: job.id })),
        },
      };
    }
    let fits = everFits.get(job.gpus);
    if (fits === undefined) {
      fits = canEverPlace(job.gpus);
      everFits.set(job.gpus, fits);
    }
    if (fits) return null;
    return {
      jobId: job.id,
      budgetId: job.budgetId,
      isError: true,
      reason: {
        rule: "error-larger-than-cluster",
        needGpus: job.gpus,
        clusterGpus,
        nodeSizeGpus,
      },
    };
  };
}

/**
 * Splits pending jobs into those that may start and those that never can as submitted (see
 * `createJobScreen`). Errors keep the input order.
 *
 * @example screenPendingJobs(pending, tree, cluster).errors.map((wait) => wait.reason.rule)
 */
export function screenPendingJobs(
  pending: readonly PendingJob[],
  tree: BudgetTree,
  cluster: ClusterSpec,
): { valid: PendingJob[]; errors: WaitDecision[] } {
  const screen = createJobScreen(tree, cluster);
  const errors: WaitDecision[] = [];
  const valid: PendingJob[] = [];
  for (const job of pending) {
    const error = screen(job);
    if (error) errors.push(error);
    else valid.push(job);
  }
  return { valid, errors };
}
