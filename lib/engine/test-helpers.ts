import { validateBudgetTree } from "./budget-tree";
import type {
  ActiveRun,
  BudgetNode,
  BudgetTree,
  ClusterSpec,
  NodeHealth,
  PendingJob,
} from "./types";

/** A nested tree for tests: ids are the paths below the root ("" for the root). */
export type TreeSpec = { name: string; weight?: number; children?: TreeSpec[] };

/** Flattens a nested spec into budget nodes with path ids (root id "root"). Test-only. */
export function flattenTree(spec: TreeSpec): BudgetNode[] {
  const nodes: BudgetNode[] = [];
  const visit = (node: TreeSpec, parentId: string | null, parentPath: string): void => {
    const path =
      parentId === null ? "" : parentPath === "" ? node.name : `${parentPath}/${node.name}`;
    const id = parentId === null ? "root" : path;
    nodes.push({ id, parentId, name: node.name, weight: node.weight ?? 1 });
    for (const child of node.children ?? []) visit(child, id, path);
  };
  visit(spec, null, "");
  return nodes;
}

/** A validated tree from a nested spec; throws if invalid. Test-only. */
export function buildTree(spec: TreeSpec): BudgetTree {
  const result = validateBudgetTree(flattenTree(spec));
  if (!result.ok) throw new Error(result.issues.map((issue) => issue.message).join(" "));
  return result.value;
}

/** A cluster of `count` nodes of `gpusPerNode`, with optional health overrides. Test-only. */
export function makeCluster(
  count: number,
  gpusPerNode = 8,
  health: Record<number, NodeHealth> = {},
): ClusterSpec {
  return {
    name: "test",
    lookbackSec: 7 * 86400,
    maxMinRuntimeSec: 8 * 3600,
    nodes: Array.from({ length: count }, (_, index) => ({
      index,
      gpus: gpusPerNode,
      health: health[index] ?? "healthy",
    })),
  };
}

/** A pending job with defaults (1 h minimum runtime, resumable, normal priority). Test-only. */
export function makeJob(
  id: string,
  budgetId: string,
  gpus: number,
  extra: Partial<PendingJob> = {},
): PendingJob {
  return {
    id,
    budgetId,
    userId: "user",
    gpus,
    minRuntimeSec: 3600,
    isResumable: true,
    priority: "normal",
    submitSec: 0,
    ...extra,
  };
}

/** A running run on the given slices; allocated, protected for 1 h from its start. Test-only. */
export function makeRun(
  id: string,
  budgetId: string,
  placement: { node: number; gpus: number }[],
  extra: Partial<ActiveRun> = {},
): ActiveRun {
  const startSec = extra.startSec ?? 0;
  return {
    id,
    jobId: `job-${id}`,
    budgetId,
    userId: "user",
    gpus: placement.reduce((sum, slice) => sum + slice.gpus, 0),
    placement,
    startSec,
    isAllocated: true,
    protectedUntilSec: startSec + 3600,
    isResumable: true,
    priority: "normal",
    ...extra,
  };
}
