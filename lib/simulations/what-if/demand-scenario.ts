// A period's actual demand as a simulator scenario (docs/simulator.md), once under the tree in
// force now (the control) and once with a draft split applied. Pure: rows in, scenario files out.
// docs/decisions/060-what-if.md says what "actual demand" means and why it is replayed.
import type { BudgetNode, JobClass, NodeHealth, Priority } from "../../engine/types";
import { classifyJob, type RawTreeNode, type ScenarioFile, type ScenarioFileJob } from "../../sim";

/** One run of a job as stored; times in seconds since the epoch. */
export type DemandRun = { startedAtSec: number; endedAtSec: number | null };

/** One stored job that was submitted in the period or was still pending or running at its start. */
export type DemandJob = {
  id: string;
  budgetId: string;
  cluster: string;
  userId: string;
  submittedAtSec: number;
  gpus: number;
  minRuntimeSec: number;
  isResumable: boolean;
  priority: Priority;
  jobClass: JobClass;
  /** Total work when known (simulated and demo jobs); null for real jobs. */
  workSec: number | null;
  firstStartedAtSec: number | null;
  /** When it completed, failed, was cancelled or ended preempted; null while pending or running. */
  endedAtSec: number | null;
  runs: DemandRun[];
};

/** One stored cluster with its nodes' current health and when it last changed. */
export type DemandCluster = {
  name: string;
  gpuType: string;
  lookbackSec: number;
  maxMinRuntimeSec: number;
  nodes: { index: number; gpus: number; health: NodeHealth; healthChangedAtSec: number }[];
};

/** A proposed child of the edited node, as a draft stores it. */
export type DraftChild = { id?: string | undefined; name: string; weight: number };

export type DemandScenarioInput = {
  fromSec: number;
  toSec: number;
  /** The moment the data was read: open runs count up to it. */
  nowSec: number;
  /** The tree the period is replayed with: the one in force at its end (ids, parents, weights). */
  tree: readonly BudgetNode[];
  /** The node whose children the draft changes, and its proposed children. */
  nodeId: string;
  draftChildren: readonly DraftChild[];
  clusters: readonly DemandCluster[];
  jobs: readonly DemandJob[];
};

/** How the demand was read, for the result page. */
export type DemandStats = {
  jobs: number;
  /** Jobs submitted before the period and still pending or running at its start. */
  carriedOver: number;
  /** Jobs whose work is unknown: replayed with their observed run time. */
  workFromObserved: number;
  gpuHoursRequested: number;
};

export type DemandScenarios =
  | { ok: true; control: ScenarioFile; draft: ScenarioFile; stats: DemandStats }
  | { ok: false; issues: { path: string; message: string }[] };

/** Prefix of the ids given to children a draft adds (they have no demand in the period). */
export const NEW_CHILD_PREFIX = "draft-new-";
/** Unknown work is at least this long, so that a job that never ran still asks for GPU time. */
export const MIN_UNKNOWN_WORK_SEC = 60;

/**
 * The tree with a draft applied for the replay: edited children take their new name and weight,
 * added children get ids `draft-new-0`, `draft-new-1`, ..., children the tree does not hold (created
 * after the period whose tree this is) join it under their own id, and children the draft leaves
 * out stay with weight 0 (with their subtree), so their jobs still replay, unfunded.
 *
 * @example applyDraftForReplay(nodes, "lang", [{ id: "a", name: "a", weight: 3 }]) // "b" -> weight 0
 */
export function applyDraftForReplay(
  tree: readonly BudgetNode[],
  nodeId: string,
  children: readonly DraftChild[],
): BudgetNode[] {
  const edits = new Map(children.flatMap((child) => (child.id ? [[child.id, child]] : [])));
  const next = tree.map((node) => {
    if (node.parentId !== nodeId) return node;
    const edit = edits.get(node.id);
    return edit ? { ...node, name: edit.name, weight: edit.weight } : { ...node, weight: 0 };
  });
  const known = new Set(tree.map((node) => node.id));
  // A child created after the period is not in the period's tree: it replays as added.
  for (const child of children) {
    if (child.id === undefined || known.has(child.id)) continue;
    next.push({ id: child.id, parentId: nodeId, name: child.name, weight: child.weight });
  }
  let added = 0;
  for (const child of children) {
    if (child.id !== undefined) continue;
    next.push({
      id: `${NEW_CHILD_PREFIX}${added}`,
      parentId: nodeId,
      name: child.name,
      weight: child.weight,
    });
    added += 1;
  }
  return next;
}

/**
 * The scenario tree keyed by node id: each node is named by its id, so a budget's scenario
 * path is its ids joined by "/" and the control and draft reports line up by id whatever the
 * draft renames.
 */
function nestById(tree: readonly BudgetNode[]): RawTreeNode {
  const childrenOf = new Map<string | null, BudgetNode[]>();
  for (const node of tree) {
    const list = childrenOf.get(node.parentId) ?? [];
    list.push(node);
    childrenOf.set(node.parentId, list);
  }
  const nest = (node: BudgetNode): RawTreeNode => {
    const children = childrenOf.get(node.id) ?? [];
    return {
      name: node.id,
      weight: node.weight,
      ...(children.length > 0 ? { children: children.map(nest) } : {}),
    };
  };
  const root = childrenOf.get(null)?.[0];
  if (!root) throw new Error("The budget tree has no root.");
  return nest(root);
}

/** Scenario paths (ids joined by "/", below the root) of every node. */
export function pathsById(tree: readonly BudgetNode[]): Map<string, string> {
  const byId = new Map(tree.map((node) => [node.id, node]));
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const path =
      !node || node.parentId === null
        ? ""
        : [pathOf(node.parentId), node.id].filter((part) => part !== "").join("/");
    paths.set(id, path);
    return path;
  };
  for (const node of tree) pathOf(node.id);
  return paths;
}

/** Seconds a run spent on GPUs inside [fromSec, toSec). */
function overlapSec(run: DemandRun, fromSec: number, toSec: number, nowSec: number): number {
  const end = run.endedAtSec ?? nowSec;
  return Math.max(0, Math.min(end, toSec) - Math.max(run.startedAtSec, fromSec));
}

/**
 * Work the job still had at the period's start, in seconds: its total work (or, unknown, its
 * observed run time, at least its minimum runtime and a minute) less what it ran before the
 * start. A resumable job keeps all earlier progress; a non-resumable one only that of a run
 * still going at the start.
 */
export function remainingWorkSec(job: DemandJob, fromSec: number, nowSec: number): number {
  const observedSec = job.runs.reduce(
    (sum, run) => sum + overlapSec(run, -Infinity, Infinity, nowSec),
    0,
  );
  const workSec = job.workSec ?? Math.max(observedSec, job.minRuntimeSec, MIN_UNKNOWN_WORK_SEC);
  const doneSec = job.isResumable
    ? job.runs.reduce((sum, run) => sum + overlapSec(run, -Infinity, fromSec, nowSec), 0)
    : job.runs
        .filter((run) => run.startedAtSec < fromSec && (run.endedAtSec ?? nowSec) > fromSec)
        .reduce((sum, run) => sum + (fromSec - run.startedAtSec), 0);
  return Math.max(1, Math.round(workSec - doneSec));
}

/**
 * Builds the control and draft scenarios of a what-if from the period's actual demand: every
 * job submitted in [fromSec, toSec), or submitted before and still pending or running at
 * fromSec (it arrives at 0 with the work it had left), on the given clusters, with its gpus,
 * minimum runtime (capped at its cluster's maximum), resumability, priority and class. Nodes
 * and their health come from the clusters; the horizon is the period's length. Refuses (as
 * issues) a draft that would leave a job charged to a budget that is no longer a leaf.
 *
 * @example buildDemandScenarios({ fromSec, toSec, nowSec, tree, nodeId, draftChildren, clusters, jobs })
 */
export function buildDemandScenarios(input: DemandScenarioInput): DemandScenarios {
  const { fromSec, toSec, nowSec } = input;
  const horizonSec = toSec - fromSec;
  if (horizonSec <= 0) {
    return { ok: false, issues: [{ path: "to", message: "The period must end after it starts." }] };
  }
  const draftTree = applyDraftForReplay(input.tree, input.nodeId, input.draftChildren);
  const controlPaths = pathsById(input.tree);
  const parentIds = new Set(draftTree.map((node) => node.parentId));
  const clusterByName = new Map(input.clusters.map((cluster) => [cluster.name, cluster]));
  const jobs: ScenarioFileJob[] = [];
  const issues: { path: string; message: string }[] = [];
  const stats: DemandStats = { jobs: 0, carriedOver: 0, workFromObserved: 0, gpuHoursRequested: 0 };
  for (const job of input.jobs) {
    const cluster = clusterByName.get(job.cluster);
    const path = controlPaths.get(job.budgetId);
    if (!cluster || path === undefined || job.submittedAtSec >= toSec) continue;
    const isCarried = job.submittedAtSec < fromSec;
    if (isCarried && job.endedAtSec !== null && job.endedAtSec <= fromSec) continue;
    if (parentIds.has(job.budgetId)) {
      issues.push({
        path: "children",
        message: `The draft splits a budget that had jobs in the period (job ${job.id}): only leaves are charged, so its work would have no budget.`,
      });
      break;
    }
    const workSec = isCarried
      ? remainingWorkSec(job, fromSec, nowSec)
      : remainingWorkSec(job, -Infinity, nowSec);
    const totalGpus = cluster.nodes.reduce((sum, node) => sum + node.gpus, 0);
    const gpus = Math.min(job.gpus, totalGpus);
    const minRuntimeSec = Math.min(job.minRuntimeSec, cluster.maxMinRuntimeSec);
    stats.jobs += 1;
    if (isCarried) stats.carriedOver += 1;
    if (job.workSec === null) stats.workFromObserved += 1;
    stats.gpuHoursRequested += (gpus * workSec) / 3600;
    jobs.push({
      id: job.id,
      budget: path,
      cluster: job.cluster,
      user: job.userId,
      submit: Math.max(0, job.submittedAtSec - fromSec),
      gpus,
      work: workSec,
      minRuntime: minRuntimeSec,
      resumable: job.isResumable,
      priority: job.priority,
      class: job.jobClass || classifyJob(minRuntimeSec, gpus),
    });
  }
  if (issues.length > 0) return { ok: false, issues };
  jobs.sort((a, b) => Number(a.submit) - Number(b.submit) || a.id.localeCompare(b.id));
  const used = input.clusters.filter((cluster) => cluster.nodes.length > 0);
  const base = {
    clusters: used.map((cluster) => ({
      name: cluster.name,
      gpuType: cluster.gpuType,
      nodes: cluster.nodes.length,
      gpusPerNode: commonGpusPerNode(cluster),
    })),
    settings: {
      lookback: Math.max(...used.map((cluster) => cluster.lookbackSec), 1),
      maxMinRuntime: Math.max(...used.map((cluster) => cluster.maxMinRuntimeSec), 0),
    },
    nodeEvents: used.flatMap((cluster) => healthEvents(cluster, fromSec, toSec)),
    horizon: horizonSec,
  };
  return {
    ok: true,
    control: { ...base, tree: nestById(input.tree), jobs },
    draft: { ...base, tree: nestById(draftTree), jobs },
    stats: { ...stats, gpuHoursRequested: Math.round(stats.gpuHoursRequested * 10) / 10 },
  };
}

/**
 * Queue waits of the jobs submitted in [fromSec, toSec) as they happened: first start minus
 * submit, up to the period's end for a job that had not started by then (as the simulator
 * counts a job that never started). Jobs carried over from before the period are left out.
 *
 * @example listActualWaits(jobs, fromSec, toSec)[0] // { budgetId, jobClass, waitSec }
 */
export function listActualWaits(jobs: readonly DemandJob[], fromSec: number, toSec: number) {
  return jobs
    .filter((job) => job.submittedAtSec >= fromSec && job.submittedAtSec < toSec)
    .map((job) => ({
      budgetId: job.budgetId,
      jobClass: job.jobClass,
      waitSec: Math.min(job.firstStartedAtSec ?? toSec, toSec) - job.submittedAtSec,
    }));
}

/** The scenario format has one node size per cluster: the most common one. */
function commonGpusPerNode(cluster: DemandCluster): number {
  const counts = new Map<number, number>();
  for (const node of cluster.nodes) counts.set(node.gpus, (counts.get(node.gpus) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 8;
}

/**
 * Node health in the period from what is stored: each node's current state since its last
 * change (a change before the period applies from its start). Earlier changes are not kept.
 */
function healthEvents(cluster: DemandCluster, fromSec: number, toSec: number) {
  return cluster.nodes.flatMap((node) => {
    if (node.health === "healthy" || node.healthChangedAtSec >= toSec) return [];
    const atSec = Math.max(0, node.healthChangedAtSec - fromSec);
    return [{ at: atSec, cluster: cluster.name, node: node.index, state: node.health }];
  });
}
