// Jobs an executor's own users submitted (SLURM: sbatch), mirrored into Allot's queue by the
// `job.submitted` event. The workload manager already checked who may charge which account
// (SLURM's associations); Allot checks what only it knows: the account is a leaf of its tree,
// the job can ever fit on the cluster, its minimum runtime is within the cluster's maximum.
// A refusal is a sentence for the executor to show its user (SLURM: the job's comment).
import "server-only";
import {
  canEverPlace,
  checkChargeableBudget,
  getBudgetNode,
  isAllocatedRun,
  protectedUntilSec,
} from "../engine";
import { adoptRun, planAdoption } from "./adopted-runs";
import type { ClusterNodeState } from "../engine";
import { slurmAccountsOf, type SlurmAccountMap } from "./slurm-mapping";
import type { ExecutorEvent } from "../validation/executor";
import {
  minRuntimeRefusal,
  parentAccountRefusal,
  tooManyGpusRefusal,
  unknownAccountRefusal,
  unplaceableRefusal,
} from "../sentences/mirror-refusals";
import { loadBudgetTree, type Tx } from "./tick/load-state";

type SubmittedEvent = Extract<ExecutorEvent, { kind: "job.submitted" }>;

/** The cluster as a mirrored submission needs it. */
export type MirrorCluster = {
  id: string;
  name: string;
  maxMinRuntimeSec: number;
  defaultMinRuntimeSec: number;
  nodes: ClusterNodeState[];
};

/** What queueing submissions needs, loaded once per batch. */
export type MirrorContext = {
  cluster: MirrorCluster;
  tree: Awaited<ReturnType<typeof loadBudgetTree>>;
  accounts: SlurmAccountMap | string;
};

export type MirrorOutcome =
  | { kind: "queued"; jobId: string }
  | { kind: "adopted"; jobId: string }
  | { kind: "known"; jobId: string }
  | { kind: "refused"; reason: string };

export async function loadMirrorContext(tx: Tx, cluster: MirrorCluster): Promise<MirrorContext> {
  const tree = await loadBudgetTree(tx);
  let accounts: SlurmAccountMap | string;
  try {
    accounts = slurmAccountsOf(tree);
  } catch (error) {
    accounts = (error as Error).message;
  }
  return { cluster, tree, accounts };
}

/** Why `event` cannot be queued on the cluster, or the leaf it charges. */
export function checkMirroredJob(
  context: MirrorContext,
  event: SubmittedEvent,
): { leafId: string; minRuntimeSec: number } | { reason: string } {
  const { cluster, accounts } = context;
  if (typeof accounts === "string") return { reason: accounts };
  const leafId = accounts.nodeIdByAccount.get(event.account.toLowerCase());
  if (leafId === undefined) {
    return { reason: unknownAccountRefusal(event.account) };
  }
  const budget = checkChargeableBudget(context.tree, leafId);
  if (!budget.ok) {
    return { reason: parentAccountRefusal(event.account, firstLeafAccount(context, leafId)) };
  }
  const clusterGpus = cluster.nodes.reduce((sum, node) => sum + node.gpus, 0);
  if (!canEverPlace(cluster.nodes, event.gpus)) {
    const nodeGpus = Math.max(0, ...cluster.nodes.map((node) => node.gpus));
    return {
      reason:
        event.gpus > clusterGpus
          ? tooManyGpusRefusal(event.gpus, cluster.name, clusterGpus)
          : unplaceableRefusal(event.gpus, cluster.name, nodeGpus),
    };
  }
  const minRuntimeSec = event.minRuntimeSec ?? cluster.defaultMinRuntimeSec;
  if (minRuntimeSec > cluster.maxMinRuntimeSec) {
    return {
      reason: minRuntimeRefusal(minRuntimeSec, cluster.name, cluster.maxMinRuntimeSec),
    };
  }
  return { leafId, minRuntimeSec };
}

/**
 * Queues one mirrored submission, or adopts it when it already runs on the executor, or says
 * why not. Idempotent by the executor's job id.
 */
export async function queueMirroredJob(
  tx: Tx,
  context: MirrorContext,
  event: SubmittedEvent,
  now: Date,
): Promise<MirrorOutcome> {
  const { cluster } = context;
  const known = await tx.job.findUnique({
    where: { clusterId_externalId: { clusterId: cluster.id, externalId: event.externalId } },
    select: { id: true },
  });
  if (known) return { kind: "known", jobId: known.id };
  // A running job's minimum runtime was SLURM's to honour so far: above the cluster's maximum it
  // is cut to it rather than refused, which would leave its GPUs unknown to Allot.
  const asked = event.running
    ? {
        ...event,
        minRuntimeSec: Math.min(
          event.minRuntimeSec ?? cluster.defaultMinRuntimeSec,
          cluster.maxMinRuntimeSec,
        ),
      }
    : event;
  const checked = checkMirroredJob(context, asked);
  if ("reason" in checked) return { kind: "refused", reason: checked.reason };
  const adoption = event.running
    ? await planAdoption(tx, cluster, event.running, event.gpus, now)
    : null;
  if (adoption && "reason" in adoption) return { kind: "refused", reason: adoption.reason };
  const userId = await findOrCreateExecutorUser(tx, cluster.name, event.user);
  const { minRuntimeSec } = checked;
  const job = await tx.job.create({
    data: {
      clusterId: cluster.id,
      budgetId: checked.leafId,
      userId,
      name: event.name,
      gpus: event.gpus,
      minRuntimeSec,
      isResumable: event.isResumable,
      priority: event.priority,
      jobClass: minRuntimeSec <= 900 && event.gpus <= 8 ? "debug" : "training",
      externalId: event.externalId,
      // An adopted job waited for nothing Allot decided: it counts as submitted when it started.
      submittedAt: adoption?.startedAt ?? now,
      ...(adoption && { state: "running", firstStartedAt: adoption.startedAt }),
    },
    select: { id: true },
  });
  if (adoption) {
    const leaf = getBudgetNode(context.tree, checked.leafId);
    const share = leaf?.effectiveShare ?? 0;
    const isAllocated = isAllocatedRun(minRuntimeSec, share);
    const startSec = adoption.startedAt.getTime() / 1000;
    const protectedUntil = new Date(protectedUntilSec(startSec, minRuntimeSec, isAllocated) * 1000);
    const run = { jobId: job.id, clusterId: cluster.id, budgetId: checked.leafId };
    const path = leaf?.path ?? checked.leafId;
    await adoptRun(
      tx,
      adoption,
      { ...run, gpus: event.gpus, isAllocated },
      path,
      protectedUntil,
      now,
    );
  }
  return { kind: adoption ? "adopted" : "queued", jobId: job.id };
}

/**
 * The Allot user behind an executor's login: the person whose email starts with `login@`
 * (the same rule sync-accounts writes), else a new user `login@<cluster>.slurm.invalid` who
 * can own jobs but has no way to sign in until an admin gives the person a real account.
 */
async function findOrCreateExecutorUser(tx: Tx, clusterName: string, login: string) {
  const lower = login.toLowerCase();
  const person = await tx.user.findFirst({
    where: { email: { startsWith: `${lower}@`, mode: "insensitive" } },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  if (person) return person.id;
  const email = `${lower}@${clusterName.toLowerCase()}.slurm.invalid`;
  const created = await tx.user.upsert({
    where: { email },
    create: { email, name: login },
    update: {},
    select: { id: true },
  });
  return created.id;
}

function firstLeafAccount(context: MirrorContext, nodeId: string): string {
  const accounts = context.accounts as SlurmAccountMap;
  const start = accounts.accounts.findIndex((account) => account.nodeId === nodeId);
  // The root's children are not prefixed by its name; any leaf is one of its leaves.
  const prefix = start === 0 ? "" : `${accounts.accounts[start]!.name}.`;
  return (
    accounts.accounts.find((account) => account.isLeaf && account.name.startsWith(prefix))?.name ??
    "a leaf"
  );
}
