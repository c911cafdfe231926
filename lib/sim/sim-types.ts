import type { NodeHealth, NodeSlice } from "../engine/types";
import type { SimJob } from "./scenario";

/** Why a run ended; `running` means it was still running at the horizon. */
export type RunEndReason = "completed" | "preempted" | "node-down" | "running";

/** One placement of a job from start to end, seconds from the scenario start. */
export type RunRecord = {
  runId: string;
  jobId: string;
  cluster: string;
  budgetId: string;
  startSec: number;
  /** The horizon for a run still running then. */
  endSec: number;
  placement: NodeSlice[];
  gpus: number;
  isAllocated: boolean;
  protectedUntilSec: number;
  endReason: RunEndReason;
  /** The scheduler's reason for a preemption, as it gave it. */
  reason?: unknown;
  /**
   * The scheduler's reason for the start, as it gave it, when the simulation was asked to keep it
   * (`keepsStartReasons`; not in the JSON report).
   */
  startReason?: unknown;
};

/** Where a job ended up by the horizon. */
export type JobFinalState = "completed" | "preempted" | "running" | "pending";

/** One job's history in a simulation. */
export type JobRecord = {
  job: SimJob;
  state: JobFinalState;
  /** Seconds; null if it never started. */
  firstStartSec: number | null;
  /** Seconds spent pending in all (up to the horizon). */
  queuedSec: number;
  preemptions: number;
  /** When it left the system (completed or ended preempted), else null. */
  endSec: number | null;
  runs: RunRecord[];
};

/**
 * A change of a cluster's GPUs in service at a moment: nodes healthy, or draining and not yet
 * empty (ADR 099).
 */
export type HealthChange = { atSec: number; upGpus: number };

/** Per-cluster outcome of a simulation. */
export type ClusterRecord = {
  name: string;
  totalGpus: number;
  healthChanges: HealthChange[];
  /** Draining nodes that emptied (ready for maintenance without a human). */
  automatedDrains: number;
  schedulingPasses: number;
  /** The moment of the cluster's last event, seconds. */
  lastEventSec: number;
};

/** The raw outcome of one simulation, before metrics. */
export type SimulationResult = {
  scheduler: string;
  horizonSec: number;
  jobs: JobRecord[];
  clusters: ClusterRecord[];
};

/** Health of each node of a cluster, for callers that inspect a moment. */
export type NodeHealthState = { index: number; gpus: number; health: NodeHealth };
