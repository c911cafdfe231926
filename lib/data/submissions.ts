// The rules of a job submission that need the database: the cluster exists, the job fits on
// it, the minimum runtime is within the cluster's maximum, the budget is a leaf the person is
// a member of. Each failure is a field issue (422), never a job that waits forever.
import "server-only";
import { canEverPlace, checkChargeableBudget, validateContract } from "../engine";
import type { BudgetTree, ClusterNodeState } from "../engine";
import type { FieldIssue } from "../errors";
import type { SubmitJobInput } from "../validation/jobs";
import { loadBudgetTree, type Tx } from "./tick/load-state";

export type SubmissionCluster = {
  id: string;
  name: string;
  gpus: number;
  nodeSizeGpus: number;
  maxMinRuntimeSec: number;
  /** SLURM clusters take jobs from sbatch only (the bridge mirrors them). */
  isSlurm: boolean;
  nodes: ClusterNodeState[];
};

/** What checking many submissions needs, loaded once. */
export type SubmissionContext = {
  clusters: Map<string, SubmissionCluster>;
  tree: BudgetTree;
  /** userId -> leaf ids the person is a member of. */
  memberships: Map<string, Set<string>>;
  /** Removed budgets among those asked for, id -> name: refused with their own message. */
  removedBudgets: Map<string, string>;
};

export async function loadSubmissionContext(
  db: Tx,
  userIds: readonly string[],
  budgetIds: readonly string[] = [],
): Promise<SubmissionContext> {
  const [clusters, tree, members, removed] = await Promise.all([
    db.cluster.findMany({
      select: {
        id: true,
        name: true,
        maxMinRuntimeSec: true,
        executor: true,
        nodes: { select: { index: true, gpus: true } },
      },
    }),
    loadBudgetTree(db),
    db.budgetMember.findMany({
      where: { userId: { in: [...userIds] } },
      select: { userId: true, nodeId: true },
    }),
    db.budgetNode.findMany({
      where: { id: { in: [...budgetIds] }, removedAt: { not: null } },
      select: { id: true, name: true },
    }),
  ]);
  const memberships = new Map<string, Set<string>>();
  for (const member of members) {
    const set = memberships.get(member.userId) ?? new Set<string>();
    set.add(member.nodeId);
    memberships.set(member.userId, set);
  }
  return {
    tree,
    memberships,
    removedBudgets: new Map(removed.map((node) => [node.id, node.name])),
    clusters: new Map(
      clusters.map((cluster) => [
        cluster.name,
        {
          id: cluster.id,
          name: cluster.name,
          maxMinRuntimeSec: cluster.maxMinRuntimeSec,
          isSlurm: cluster.executor === "slurm",
          gpus: cluster.nodes.reduce((sum, node) => sum + node.gpus, 0),
          nodeSizeGpus: Math.max(0, ...cluster.nodes.map((node) => node.gpus)),
          nodes: cluster.nodes.map((node) => ({ ...node, health: "healthy" as const })),
        },
      ]),
    ),
  };
}

const fitCache = new Map<string, boolean>();

/** Field issues of one submission by `userId`; empty when it may be queued. */
export function checkSubmission(
  context: SubmissionContext,
  userId: string,
  input: SubmitJobInput,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const cluster = context.clusters.get(input.cluster);
  if (!cluster) {
    const known = [...context.clusters.keys()].sort().join(", ");
    issues.push({
      path: "cluster",
      message: `No cluster is named "${input.cluster}" (${known ? `clusters: ${known}` : "none yet"}).`,
    });
  } else if (cluster.isSlurm) {
    issues.push({
      path: "cluster",
      message: `${cluster.name} is run by SLURM: submit with sbatch -A <your budget's account> on its login node.`,
    });
  } else {
    const key = `${cluster.id}:${input.gpus}`;
    const fits = fitCache.get(key) ?? canEverPlace(cluster.nodes, input.gpus);
    fitCache.set(key, fits);
    if (!fits) {
      issues.push({
        path: "gpus",
        message:
          input.gpus > cluster.gpus
            ? `${cluster.name} has ${cluster.gpus} GPUs; a job of ${input.gpus} GPUs can never run there.`
            : `${input.gpus} GPUs cannot be placed on ${cluster.name}'s nodes of ${cluster.nodeSizeGpus} GPUs.`,
      });
    }
    const contract = validateContract(
      { gpus: input.gpus, minRuntimeSec: input.minRuntimeSec },
      cluster.maxMinRuntimeSec,
    );
    if (!contract.ok && contract.issues.some((issue) => issue.code === "min-runtime-too-long")) {
      issues.push({
        path: "minRuntimeSec",
        message: `Minimum runtime is at most ${cluster.maxMinRuntimeSec / 3600} h on ${cluster.name} (got ${formatHours(input.minRuntimeSec)}).`,
      });
    }
  }
  const budget = checkChargeableBudget(context.tree, input.budgetId);
  const removedName = context.removedBudgets.get(input.budgetId);
  if (removedName !== undefined) {
    issues.push({
      path: "budgetId",
      message: `The budget "${removedName}" was removed; charge one of your other budgets.`,
    });
  } else if (!budget.ok) {
    const [issue] = budget.issues;
    issues.push({
      path: "budgetId",
      message:
        issue?.code === "inner-budget"
          ? `${issue.message} Pick one of its leaves.`
          : (issue?.message ?? "Unknown budget."),
    });
  } else if (!context.memberships.get(userId)?.has(input.budgetId)) {
    issues.push({
      path: "budgetId",
      message: `You are not a member of "${budget.value.path}", so you may not charge it.`,
    });
  }
  return issues;
}

function formatHours(sec: number): string {
  return sec % 3600 === 0 ? `${sec / 3600} h` : `${Math.round(sec / 60)} min`;
}
