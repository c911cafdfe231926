import { DEFAULT_MAX_MIN_RUNTIME_SEC } from "../engine/contract";
import type { BudgetNode, JobClass, NodeHealth, Priority } from "../engine/types";
import { formatDurationSec, MAX_DURATION_SEC, parseDurationSec } from "./duration";
import type { z } from "zod";
import { compareIssues, toIssues, type ScenarioIssue } from "./scenario-issues";
import { flattenTree, ROOT_ID } from "./scenario-tree";
import {
  clusterSchema,
  jobSchema,
  MAX_SCENARIO_GPUS,
  MAX_TREE_DEPTH,
  nodeEventSchema,
  scenarioFileSchema,
  treeNodeSchema,
  type ParsedCluster,
  type ParsedElement,
  type ParsedJob,
  type ParsedNodeEvent,
  type ParsedScenarioFile,
} from "./scenario-schema";

/** The default lookback window W: 7 days, in seconds. */
export const DEFAULT_LOOKBACK_SEC = 7 * 86_400;
/** The default cap on a job's minimum runtime: the engine's (8 hours, in seconds). */
export { DEFAULT_MAX_MIN_RUNTIME_SEC };

/** A cluster of identical nodes. */
export type SimCluster = { name: string; gpuType: string; nodes: number; gpusPerNode: number };

/** A job with every duration in seconds and its budget resolved to a leaf id (its path). */
export type SimJob = {
  id: string;
  name?: string;
  budgetId: string;
  cluster: string;
  userId: string;
  submitSec: number;
  gpus: number;
  /** Run time the job needs in all, in seconds; a preempted resumable job keeps what it did. */
  workSec: number;
  minRuntimeSec: number;
  isResumable: boolean;
  priority: Priority;
  jobClass: JobClass;
  baselinePriority: Priority;
  isBaselinePreemptible: boolean;
};

/** A node health change at a moment, in seconds from the scenario start. */
export type SimNodeEvent = { atSec: number; cluster: string; node: number; state: NodeHealth };

/** A validated scenario: all durations in seconds, all references resolved. */
export type Scenario = {
  clusters: SimCluster[];
  /** Flat tree; the root's id is {@link ROOT_ID}, other ids are paths. */
  tree: BudgetNode[];
  lookbackSec: number;
  maxMinRuntimeSec: number;
  jobs: SimJob[];
  nodeEvents: SimNodeEvent[];
  /** Baseline cap on GPUs held by non-preemptible jobs, by top-level team name. */
  nonPreemptibleGpuCap: Record<string, number>;
  /** Stop time in seconds, or null to run until every job is done. */
  horizonSec: number | null;
};

/** A parse result: the scenario, or every problem found. */
export type ScenarioResult = { ok: true; value: Scenario } | { ok: false; issues: ScenarioIssue[] };

/** Derives the report class: `debug` for min runtime <= 15 min and <= 8 GPUs, else `training`. */
export function classifyJob(minRuntimeSec: number, gpus: number): JobClass {
  return minRuntimeSec <= 900 && gpus <= 8 ? "debug" : "training";
}

/**
 * zod's checks, with a missing field said plainly: zod's own words name what it expected of the
 * absent value ("Invalid input: expected nonoptional, received undefined", or just "Invalid
 * input" for a field of several types). JSON has no undefined, so an undefined input is absent.
 */
const PARSE_PARAMS = {
  error: (issue: { input?: unknown }) =>
    issue.input === undefined ? "required, but missing" : undefined,
};

/**
 * Validates a parsed JSON value as a scenario (docs/simulator.md) and normalises it.
 *
 * Lists every problem with its path, e.g. `jobs[12].minRuntime: 9h is above the cluster
 * maximum 8h`; never throws on bad input.
 *
 * @example parseScenario(JSON.parse(text)) // { ok: true, value } | { ok: false, issues }
 */
export function parseScenario(input: unknown): ScenarioResult {
  const shape = scenarioFileSchema.safeParse(input, PARSE_PARAMS);
  const issues = shape.success ? [] : toIssues(shape.error, []);
  // The elements are checked one by one even when the top level is wrong, so that it hides none
  // of their own problems; what needs the whole file (references, durations against the
  // settings' maximum) waits for it.
  const elements = parseElements(isRecord(input) ? input : {}, issues);
  if (!shape.success) return { ok: false, issues: issues.sort(compareIssues) };
  const result = normaliseScenario({ ...shape.data, ...elements });
  if (issues.length === 0) return result;
  const later = result.ok ? [] : result.issues;
  return { ok: false, issues: [...issues, ...later].sort(compareIssues) };
}

/**
 * Whether a raw tree nests its `children` deeper than `maxDepth` levels (the root is level 1),
 * walked without recursion: zod's recursive parse of a tree a thousand levels deep overflows
 * the stack.
 */
function isDeeperThan(rawTree: unknown, maxDepth: number): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: rawTree, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > maxDepth) return true;
    const children = isRecord(node) ? node.children : undefined;
    if (!Array.isArray(children)) continue;
    for (const child of children) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}

/**
 * A file's tree, clusters, jobs and node events, each checked on its own, their problems added to
 * `issues`: a tree or cluster that failed is null, a job or node event keeps its good fields; a
 * tree or list that is not there is left to the top level.
 */
function parseElements(
  file: Record<string, unknown>,
  issues: ScenarioIssue[],
): Pick<ParsedScenarioFile, "tree" | "clusters" | "failedClusterNames" | "jobs" | "nodeEvents"> {
  const eachElement = <T>(items: unknown, schema: z.ZodObject, key: string): ParsedElement<T>[] =>
    !Array.isArray(items)
      ? []
      : items.map((item: unknown, i): ParsedElement<T> => {
          const parsed = schema.safeParse(item, PARSE_PARAMS);
          if (parsed.success) return { isValid: true, value: parsed.data as T };
          issues.push(...toIssues(parsed.error, [key, i]));
          return { isValid: false, fields: pickValidFields(item, schema) as Partial<T> };
        });
  let tree: ParsedScenarioFile["tree"] = null;
  if (file.tree !== undefined && isDeeperThan(file.tree, MAX_TREE_DEPTH)) {
    issues.push({ path: "tree", message: `nests deeper than ${MAX_TREE_DEPTH} levels` });
  } else if (file.tree !== undefined) {
    const parsed = treeNodeSchema.safeParse(file.tree, PARSE_PARAMS);
    if (parsed.success) tree = parsed.data;
    else issues.push(...toIssues(parsed.error, ["tree"]));
  }
  const clusters = eachElement<ParsedCluster>(file.clusters, clusterSchema, "clusters").map(
    (element) => (element.isValid ? element.value : null),
  );
  const totalGpus = clusters.reduce((sum, c) => sum + (c ? c.nodes * c.gpusPerNode : 0), 0);
  if (totalGpus > MAX_SCENARIO_GPUS) {
    issues.push({
      path: "clusters",
      message: `hold ${totalGpus.toLocaleString("en-US")} GPUs in all; at most ${MAX_SCENARIO_GPUS.toLocaleString("en-US")}`,
    });
  }
  const failedClusterNames = new Set(
    (Array.isArray(file.clusters) ? file.clusters : [])
      .filter(
        (raw: unknown, i) => clusters[i] === null && isRecord(raw) && typeof raw.name === "string",
      )
      .map((raw) => (raw as { name: string }).name),
  );
  return {
    tree,
    clusters,
    failedClusterNames,
    jobs: eachElement(file.jobs, jobSchema, "jobs"),
    nodeEvents: eachElement(file.nodeEvents, nodeEventSchema, "nodeEvents"),
  };
}

/**
 * The fields of an element that pass their own schema, each parsed alone; absent fields are left
 * out (their absence is already an issue, and a default would stand in for nothing).
 */
function pickValidFields(item: unknown, schema: z.ZodObject): Record<string, unknown> {
  if (!isRecord(item)) return {};
  const fields: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    if (item[key] === undefined) continue;
    const parsed = field.safeParse(item[key]);
    if (parsed.success) fields[key] = parsed.data;
  }
  return fields;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function normaliseScenario(file: ParsedScenarioFile): ScenarioResult {
  const issues: ScenarioIssue[] = [];
  function duration(value: number | string | undefined, path: string, fallback: number): number {
    if (value === undefined) return fallback;
    const sec = parseDurationSec(value);
    if (sec === null) {
      const shown = JSON.stringify(value);
      issues.push({
        path,
        message: `${shown} is not a duration (seconds, or "90s", "15m", "8h", "7d", "1h30m", "1:30:00")`,
      });
      return fallback;
    }
    if (sec > MAX_DURATION_SEC) {
      issues.push({
        path,
        message: `${JSON.stringify(value)} is longer than the simulator's limit of ${formatDurationSec(MAX_DURATION_SEC)} (five years)`,
      });
      return fallback;
    }
    return sec;
  }
  const lookbackSec = duration(file.settings?.lookback, "settings.lookback", DEFAULT_LOOKBACK_SEC);
  if (lookbackSec <= 0) issues.push({ path: "settings.lookback", message: "must be above 0" });
  const maxMinRuntimeSec = duration(
    file.settings?.maxMinRuntime,
    "settings.maxMinRuntime",
    DEFAULT_MAX_MIN_RUNTIME_SEC,
  );
  const issuesBeforeHorizon = issues.length;
  const horizon = file.horizon === undefined ? null : duration(file.horizon, "horizon", 0);
  // A zero horizon simulates nothing: every figure would read 0 or "-" with no word of why.
  if (horizon === 0 && issues.length === issuesBeforeHorizon) {
    issues.push({ path: "horizon", message: "must be above 0 (leave it out to run every job)" });
  }
  const isTreeKnown = file.tree !== null;
  const tree = file.tree ? flattenTree(file.tree, issues) : [];
  const childCount = new Map<string, number>();
  for (const node of tree) {
    if (node.parentId !== null)
      childCount.set(node.parentId, (childCount.get(node.parentId) ?? 0) + 1);
  }
  const clusters = new Map<string, NonNullable<(typeof file.clusters)[number]>>();
  file.clusters.forEach((cluster, i) => {
    if (!cluster) return;
    if (clusters.has(cluster.name)) {
      issues.push({
        path: `clusters[${i}].name`,
        message: `duplicate cluster name "${cluster.name}"`,
      });
    }
    clusters.set(cluster.name, cluster);
  });
  const budgetIds = new Set(tree.map((node) => node.id));
  const jobIds = new Set<string>();
  const jobs: SimJob[] = [];
  file.jobs.forEach((element, i) => {
    // A job that failed its shape checks still has its good fields checked here; it is not
    // built, and the file is refused for its shape problems anyway.
    const raw: Partial<ParsedJob> = element.isValid ? element.value : element.fields;
    const at = `jobs[${i}]`;
    if (raw.id !== undefined) {
      if (jobIds.has(raw.id))
        issues.push({ path: `${at}.id`, message: `duplicate job id "${raw.id}"` });
      jobIds.add(raw.id);
    }
    if (!isTreeKnown || raw.budget === undefined) {
      // The tree's own problems are listed; budget names cannot be checked against it.
    } else if (!budgetIds.has(raw.budget) || raw.budget === ROOT_ID) {
      issues.push({ path: `${at}.budget`, message: `no budget "${raw.budget}" in the tree` });
    } else if (childCount.has(raw.budget)) {
      issues.push({
        path: `${at}.budget`,
        message: `"${raw.budget}" is not a leaf: jobs are charged to leaves only`,
      });
    }
    const cluster = raw.cluster === undefined ? undefined : clusters.get(raw.cluster);
    if (raw.cluster === undefined) {
      // Missing or of the wrong type: its shape problem is listed.
    } else if (!cluster) {
      if (!file.failedClusterNames.has(raw.cluster))
        issues.push({ path: `${at}.cluster`, message: `no cluster "${raw.cluster}"` });
    } else if (raw.gpus !== undefined && raw.gpus > cluster.nodes * cluster.gpusPerNode) {
      const total = cluster.nodes * cluster.gpusPerNode;
      issues.push({
        path: `${at}.gpus`,
        message: `${raw.gpus} is above the cluster total ${total}`,
      });
    }
    const minRuntimeSec = duration(raw.minRuntime, `${at}.minRuntime`, maxMinRuntimeSec);
    if (minRuntimeSec > maxMinRuntimeSec) {
      issues.push({
        path: `${at}.minRuntime`,
        message: `${formatDurationSec(minRuntimeSec)} is above the cluster maximum ${formatDurationSec(maxMinRuntimeSec)}`,
      });
    }
    const workSec = duration(raw.work, `${at}.work`, 1);
    if (workSec <= 0) issues.push({ path: `${at}.work`, message: "must be above 0" });
    const submitSec = duration(raw.submit, `${at}.submit`, 0);
    if (!element.isValid) return;
    const job = element.value;
    jobs.push({
      id: job.id,
      ...(job.name === undefined ? {} : { name: job.name }),
      budgetId: job.budget,
      cluster: job.cluster,
      userId: job.user,
      submitSec,
      gpus: job.gpus,
      workSec,
      minRuntimeSec,
      isResumable: job.resumable,
      priority: job.priority,
      jobClass: job.class ?? classifyJob(minRuntimeSec, job.gpus),
      baselinePriority: job.baseline?.priority ?? job.priority,
      isBaselinePreemptible: job.baseline?.preemptible ?? true,
    });
  });
  const nodeEvents = file.nodeEvents.flatMap((element, i) => {
    const raw: Partial<ParsedNodeEvent> = element.isValid ? element.value : element.fields;
    const cluster = raw.cluster === undefined ? undefined : clusters.get(raw.cluster);
    if (raw.cluster === undefined) {
      // Missing or of the wrong type: its shape problem is listed.
    } else if (!cluster) {
      issues.push({ path: `nodeEvents[${i}].cluster`, message: `no cluster "${raw.cluster}"` });
    } else if (raw.node !== undefined && raw.node >= cluster.nodes) {
      issues.push({
        path: `nodeEvents[${i}].node`,
        message: `node ${raw.node} does not exist (cluster "${raw.cluster}" has nodes 0-${cluster.nodes - 1})`,
      });
    }
    const atSec = duration(raw.at, `nodeEvents[${i}].at`, 0);
    if (!element.isValid) return [];
    const { cluster: name, node, state } = element.value;
    return [{ atSec, cluster: name, node, state }];
  });
  const caps = file.baseline?.nonPreemptibleGpuCap ?? {};
  for (const team of Object.keys(caps)) {
    if (isTreeKnown && !tree.some((node) => node.id === team && node.parentId === ROOT_ID)) {
      issues.push({
        path: `baseline.nonPreemptibleGpuCap.${team}`,
        message: `"${team}" is not a top-level node of the tree`,
      });
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  const value: Scenario = {
    clusters: [...clusters.values()].map(({ name, gpuType, nodes, gpusPerNode }) => ({
      name,
      gpuType,
      nodes,
      gpusPerNode,
    })),
    tree,
    lookbackSec,
    maxMinRuntimeSec,
    jobs,
    nodeEvents: [...nodeEvents].sort((a, b) => a.atSec - b.atSec),
    nonPreemptibleGpuCap: { ...caps },
    horizonSec: horizon,
  };
  return { ok: true, value };
}
