// The API answers the live commands read, as zod schemas: each names the fields a command uses
// and lets the others through (so --json prints what the server said). The checks at the end
// hold them to the types the server returns: a field renamed on the server fails to compile.
import { z } from "zod";
import type { BudgetNodeView } from "../data/budgets";
import type { ChargeableBudget } from "../data/jobs";
import type { NodeHealthResult } from "../data/node-health";
import type { ClusterNodes } from "../data/nodes";
import type { JobView } from "../data/job-views";
import type { ClusterQueue } from "../data/queue";
import type { SessionUser } from "../data/users";

const int = z.number().int();

export const meAnswer = z.looseObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  budgets: z.array(z.looseObject({ id: z.string(), path: z.string() })),
});
export type MeAnswer = z.output<typeof meAnswer>;

export const clusterListAnswer = z.looseObject({
  clusters: z.array(z.looseObject({ name: z.string(), gpus: int })),
});

/** SLURM's job id of a job submitted with sbatch; null, or absent from an older server, else. */
const externalId = z.string().nullish();

export const queuedJobAnswer = z.looseObject({
  jobId: z.string(),
  externalId,
  name: z.string(),
  userId: z.string(),
  userName: z.string(),
  budgetPath: z.string(),
  position: int.nullable(),
  rank: int.nullable(),
  priority: z.string(),
  gpus: int,
  minRuntimeSec: int,
  waitingSec: z.number(),
  sentence: z.string(),
  /** Added by the start estimates (issue #33): absent on servers before them. */
  expectedStartAt: z.string().nullable().optional(),
  startNote: z.string().nullable().optional(),
});
export type QueuedJobAnswer = z.output<typeof queuedJobAnswer>;

export const runningRunAnswer = z.looseObject({
  runId: z.string(),
  jobId: z.string(),
  externalId,
  name: z.string(),
  userId: z.string(),
  userName: z.string(),
  budgetPath: z.string(),
  rank: int.nullable(),
  gpus: int,
  nodes: z.array(int),
  /** SLURM's names for `nodes`; null (or absent, from an older server) on a demo cluster. */
  hosts: z.array(z.string()).nullish(),
  isAllocated: z.boolean(),
  startedSec: z.number(),
  protectedUntilSec: z.number(),
});
export type RunningRunAnswer = z.output<typeof runningRunAnswer>;

export const shareRowAnswer = z.looseObject({
  id: z.string(),
  path: z.string(),
  name: z.string(),
  depth: int,
  isLeaf: z.boolean(),
  effectiveShare: z.number(),
  usageGpuSeconds: z.number(),
  usageRatio: z.number().nullable(),
  rank: int.nullable(),
  /** Absent in rankings stored before 2026-12-04 (lib/data/tick/ranking.ts). */
  weight: z.number().optional(),
  fraction: z.number().optional(),
  levelFairShare: z
    .union([z.number(), z.literal("inf")])
    .nullable()
    .optional(),
});
export type ShareRowAnswer = z.output<typeof shareRowAnswer>;

export const clusterQueueAnswer = z.looseObject({
  cluster: z.looseObject({ name: z.string(), gpus: int }),
  nowSec: z.number(),
  pendingTotal: int,
  lookbackSec: z.number(),
  pending: z.array(queuedJobAnswer),
  running: z.array(runningRunAnswer),
  tree: z.array(shareRowAnswer),
});
export type ClusterQueueAnswer = z.output<typeof clusterQueueAnswer>;

export const jobAnswer = z.looseObject({
  id: z.string(),
  name: z.string(),
  cluster: z.string(),
  budget: z.looseObject({
    id: z.string(),
    path: z.string(),
    rank: int.nullable(),
    rankOf: int,
    usageRatio: z.number().nullable(),
  }),
  user: z.looseObject({ id: z.string(), name: z.string() }),
  gpus: int,
  minRuntimeSec: int,
  isResumable: z.boolean(),
  priority: z.string(),
  state: z.string(),
  submittedSec: z.number(),
  endedSec: z.number().nullable(),
  queuePosition: int.nullable(),
  waitSentence: z.string().nullable(),
  nowSec: z.number(),
  runs: z.array(
    z.looseObject({
      nodes: z.array(int),
      hosts: z.array(z.string()).nullish(),
      isAllocated: z.boolean(),
      startSec: z.number(),
      endSec: z.number().nullable(),
      protectedUntilSec: z.number(),
      endReason: z.string().nullable(),
    }),
  ),
  decisions: z.array(
    z.looseObject({
      kind: z.string(),
      atSec: z.number(),
      sentence: z.string(),
    }),
  ),
});
export type JobAnswer = z.output<typeof jobAnswer>;

/** POST /api/v1/jobs and POST /api/v1/jobs/{id}/cancel. */
export const jobEnvelopeAnswer = z.looseObject({ job: jobAnswer });

const personAnswer = z.looseObject({ id: z.string(), name: z.string() });

export const budgetTreeAnswer = z.looseObject({
  clusters: z.array(z.looseObject({ name: z.string(), gpus: int })),
  nodes: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      path: z.string(),
      depth: int,
      isLeaf: z.boolean(),
      weight: z.number(),
      fraction: z.number(),
      effectiveShare: z.number(),
      leads: z.array(personAnswer),
      members: z.array(personAnswer),
      gpuHoursPerWeek: z.record(z.string(), z.number()),
    }),
  ),
});
export type BudgetTreeAnswer = z.output<typeof budgetTreeAnswer>;

const healthOfNode = z.enum(["healthy", "draining", "down"]);

export const nodeAnswer = z.looseObject({
  index: int,
  /** The executor's name for it (SLURM's NodeName); null on a demo cluster, absent from older servers. */
  hostname: z.string().nullish(),
  gpus: int,
  usedGpus: int,
  runs: z.array(z.looseObject({ jobId: z.string(), gpus: int })),
  health: healthOfNode,
  healthChangedSec: z.number(),
  isUnchangedOnRecord: z.boolean(),
  lastChange: z
    .looseObject({
      atSec: z.number(),
      actor: z.looseObject({
        source: z.enum(["person", "executor", "demo_driver"]).nullable(),
        name: z.string().nullable(),
      }),
      reason: z.string().nullable(),
    })
    .nullable(),
  drainedSec: z.number().nullable(),
  emptyBySec: z.number().nullable(),
});
export type NodeAnswer = z.output<typeof nodeAnswer>;

/** GET /api/v1/clusters/{name}/nodes: the nodes (the history is let through for --json). */
export const clusterNodesAnswer = z.looseObject({ nowSec: z.number(), nodes: z.array(nodeAnswer) });
export type ClusterNodesAnswer = z.output<typeof clusterNodesAnswer>;

/** POST /api/v1/clusters/{name}/nodes/{node}/health. */
export const nodeHealthAnswer = z.looseObject({
  cluster: z.string(),
  node: int,
  health: healthOfNode,
  note: z.string().nullable(),
});

/** True when the server's type `Server` can be read as `Answer`. */
type Reads<Server, Answer> = [Server] extends [Answer] ? true : false;

const readsMe: Reads<SessionUser & { budgets: ChargeableBudget[] }, MeAnswer> = true;
const readsQueue: Reads<ClusterQueue, ClusterQueueAnswer> = true;
const readsJob: Reads<JobView, JobAnswer> = true;
const readsBudgets: Reads<
  BudgetNodeView & { gpuHoursPerWeek: Record<string, number> },
  BudgetTreeAnswer["nodes"][number]
> = true;
const readsNodes: Reads<ClusterNodes, ClusterNodesAnswer> = true;
const readsNodeHealth: Reads<NodeHealthResult, z.output<typeof nodeHealthAnswer>> = true;
export const ANSWERS_MATCH_SERVER =
  readsMe && readsQueue && readsJob && readsBudgets && readsNodes && readsNodeHealth;
