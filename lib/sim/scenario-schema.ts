import { z } from "zod";
// Names end up in stored results (the summary's clusters, the report's budgets): the one
// string rule of the API refuses what PostgreSQL cannot store (docs/decisions/081).
import { lineString } from "../text";

/** A duration: seconds, or a string (`"90s"`, `"8h"`, `"1h30m"`, `"1:30:00"`); checked later. */
const durationField = z.union([z.number(), lineString()]);
const priorityField = z.enum(["low", "normal", "high"]);
const nameField = lineString()
  .min(1, "must not be empty")
  .refine((name) => !name.includes("/"), "must not contain '/'");

/** The most nodes a scenario's cluster may have (as many as a registered cluster). */
export const MAX_SCENARIO_NODES = 10_000;
/** The most GPUs a scenario's node may have. */
export const MAX_GPUS_PER_NODE = 64;
/** The most GPUs a scenario's clusters may hold together, far past any lab's. */
export const MAX_SCENARIO_GPUS = 1_000_000;
/** The deepest a scenario's budget tree may nest (real ones have 3 to 5 levels). */
export const MAX_TREE_DEPTH = 32;

/** One cluster of identical nodes. */
export const clusterSchema = z.strictObject({
  name: nameField,
  gpuType: lineString().min(1),
  nodes: z
    .number()
    .int()
    .positive()
    .max(MAX_SCENARIO_NODES, `must be at most ${MAX_SCENARIO_NODES.toLocaleString("en-US")}`),
  gpusPerNode: z
    .number()
    .int()
    .positive()
    .max(MAX_GPUS_PER_NODE, `must be at most ${MAX_GPUS_PER_NODE}`)
    .default(8),
});

/** One node of the budget tree as a scenario nests it. Weights default to 1. */
export type RawTreeNode = {
  name: string;
  weight?: number | undefined;
  children?: RawTreeNode[] | undefined;
};

/** Shape of a tree node (names are checked for '/' and duplicates after parsing). */
export const treeNodeSchema: z.ZodType<RawTreeNode> = z.strictObject({
  name: lineString().min(1, "must not be empty"),
  weight: z.number().nonnegative().finite().optional(),
  get children() {
    return z.array(treeNodeSchema).optional();
  },
});

/** One job of a scenario, before durations are parsed and references checked. */
export const jobSchema = z.strictObject({
  id: lineString().min(1),
  name: lineString().optional(),
  budget: lineString().min(1),
  cluster: lineString().min(1),
  user: lineString().min(1).default("anonymous"),
  submit: durationField,
  gpus: z.number().int().positive(),
  work: durationField,
  minRuntime: durationField.optional(),
  resumable: z.boolean().default(true),
  priority: priorityField.default("normal"),
  class: lineString().min(1).optional(),
  baseline: z
    .strictObject({
      priority: priorityField.optional(),
      preemptible: z.boolean().optional(),
    })
    .optional(),
});

/** A node health change: `at` a duration from the start, node index, new state. */
export const nodeEventSchema = z.strictObject({
  at: durationField,
  cluster: lineString().min(1),
  node: z.number().int().nonnegative(),
  state: z.enum(["healthy", "draining", "down"]),
});

/**
 * The scenario file, docs/simulator.md, top level only: clusters, jobs and node events are
 * checked one by one (see {@link clusterSchema}, {@link jobSchema}, {@link nodeEventSchema}) so
 * that one bad job does not hide the problems of the others.
 */
export const scenarioFileSchema = z.strictObject({
  clusters: z.array(z.unknown()).min(1, "needs at least one cluster"),
  tree: z.unknown(),
  settings: z
    .strictObject({ lookback: durationField.optional(), maxMinRuntime: durationField.optional() })
    .optional(),
  jobs: z.array(z.unknown()),
  nodeEvents: z.array(z.unknown()).optional(),
  baseline: z
    .strictObject({
      nonPreemptibleGpuCap: z.record(z.string(), z.number().int().nonnegative()).optional(),
    })
    .optional(),
  horizon: durationField.optional(),
});

/** One cluster after zod's checks and defaults. */
export type ParsedCluster = z.output<typeof clusterSchema>;
/** One job after zod's checks and defaults (durations still unparsed). */
export type ParsedJob = z.output<typeof jobSchema>;
/** One node event after zod's checks. */
export type ParsedNodeEvent = z.output<typeof nodeEventSchema>;
/** A scenario job as a file writes it. */
export type ScenarioFileJob = z.input<typeof jobSchema>;

/** The scenario file as written (durations unparsed, references unchecked). */
export type ScenarioFile = Omit<
  z.input<typeof scenarioFileSchema>,
  "clusters" | "jobs" | "nodeEvents" | "tree"
> & {
  tree: RawTreeNode;
  clusters: z.input<typeof clusterSchema>[];
  jobs: ScenarioFileJob[];
  nodeEvents?: z.input<typeof nodeEventSchema>[];
};

/**
 * An element (a job, a node event) after zod's checks. One that failed them keeps the fields
 * that passed their own, so that those fields' later checks (references, durations) still run:
 * a job with bad `gpus` and an unknown budget reports both.
 */
export type ParsedElement<T> = { isValid: true; value: T } | { isValid: false; fields: Partial<T> };

/** The file after zod's checks; clusters that failed theirs are null (their issues are listed). */
export type ParsedScenarioFile = Omit<
  z.output<typeof scenarioFileSchema>,
  "clusters" | "jobs" | "nodeEvents" | "tree"
> & {
  /** null when the tree failed its shape checks (budget references are then not checked). */
  tree: RawTreeNode | null;
  clusters: (ParsedCluster | null)[];
  /**
   * Names of clusters that failed their own checks: jobs on them are not reported again (one
   * bad cluster field would otherwise add a problem per job).
   */
  failedClusterNames: ReadonlySet<string>;
  jobs: ParsedElement<ParsedJob>[];
  nodeEvents: ParsedElement<ParsedNodeEvent>[];
};
