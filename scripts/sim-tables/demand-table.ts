import { formatNumber, formatShare } from "../../lib/format";
import type { BudgetSummary, Scenario } from "../../lib/sim";
import { formatMarkdownTable } from "./markdown";

/** What a group of budgets asked for, by the shape of its jobs (independent of the scheduler). */
export type DemandShape = {
  path: string;
  effectiveShare: number;
  /** Sum of gpus x work over its jobs. */
  askedGpuHours: number;
  /** Part of askedGpuHours in jobs with more GPUs than the leaf's share of their cluster. */
  aboveShareGpuHours: number;
  /** Part of askedGpuHours in jobs with no minimum runtime (they only take leftovers). */
  minRuntimeZeroGpuHours: number;
  largestJobGpus: number;
};

/**
 * Per group of leaf budgets (paths cut to `depth` parts), how much of the work asked for comes in
 * jobs larger than the leaf's hourly share of the cluster they run on (share x the cluster's
 * GPUs), and how much has minimum runtime 0: the two kinds of demand an hourly entitlement
 * cannot be met for. Groups in decreasing share.
 *
 * @example describeDemand(scenario, report.budgets, 2)[0].aboveShareGpuHours
 */
export function describeDemand(
  scenario: Pick<Scenario, "clusters" | "jobs">,
  budgets: readonly Pick<BudgetSummary, "path" | "effectiveShare">[],
  depth: number,
): DemandShape[] {
  const clusterGpus = new Map(scenario.clusters.map((c) => [c.name, c.nodes * c.gpusPerNode]));
  const leafShare = new Map(budgets.map((budget) => [budget.path, budget.effectiveShare]));
  const groupOf = (path: string) => path.split("/").slice(0, depth).join("/");
  const groups = new Map<string, DemandShape>();
  const groupFor = (path: string): DemandShape => {
    const key = groupOf(path);
    let group = groups.get(key);
    if (!group) {
      group = {
        path: key,
        effectiveShare: 0,
        askedGpuHours: 0,
        aboveShareGpuHours: 0,
        minRuntimeZeroGpuHours: 0,
        largestJobGpus: 0,
      };
      groups.set(key, group);
    }
    return group;
  };
  for (const budget of budgets) groupFor(budget.path).effectiveShare += budget.effectiveShare;
  for (const job of scenario.jobs) {
    const group = groupFor(job.budgetId);
    const gpuHours = (job.gpus * job.workSec) / 3600;
    const shareGpus = (leafShare.get(job.budgetId) ?? 0) * (clusterGpus.get(job.cluster) ?? 0);
    group.askedGpuHours += gpuHours;
    if (job.gpus > shareGpus) group.aboveShareGpuHours += gpuHours;
    if (job.minRuntimeSec === 0) group.minRuntimeZeroGpuHours += gpuHours;
    group.largestJobGpus = Math.max(group.largestJobGpus, job.gpus);
  }
  return [...groups.values()].sort(
    (a, b) => b.effectiveShare - a.effectiveShare || a.path.localeCompare(b.path),
  );
}

/** {@link describeDemand} as a markdown table. */
export function formatDemandTable(shapes: readonly DemandShape[]): string {
  const part = (value: number, of: number) => formatShare(of > 0 ? value / of : null, "-");
  return formatMarkdownTable(
    [
      "budget",
      "share",
      "asked GPU-h (gpus x work)",
      "in jobs above the leaf's share",
      "min runtime 0",
      "largest job, GPUs",
    ],
    shapes.map((shape) => [
      shape.path,
      `${(shape.effectiveShare * 100).toFixed(2)}%`,
      formatNumber(shape.askedGpuHours),
      part(shape.aboveShareGpuHours, shape.askedGpuHours),
      part(shape.minRuntimeZeroGpuHours, shape.askedGpuHours),
      formatNumber(shape.largestJobGpus),
    ]),
    ["left", "right", "right", "right", "right", "right"],
  );
}
