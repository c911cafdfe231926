/**
 * The demo's past (docs/decisions/070-review-rollups.md): the lab workload simulated under the
 * budget scheduler for the 35 days up to "now", as records the seed
 * stores: jobs, runs, start / preempt / drain decisions, node health changes. Times are epoch
 * seconds. At "now" the history hands over to the live demo: what is still pending or running
 * ends `cancelled` then (the simulated executor is gone), nodes come back healthy, and the
 * demo executor starts its own workload on empty clusters; the runs stay in the usage window.
 * Pure: same options, same history.
 */
import type { NodeHealth, NodeSlice, Priority } from "../engine";
import {
  createAllocationScheduler,
  parseScenario,
  runSimulation,
  type Scenario,
  type SimulationResult,
} from "../sim";
import { drainEmptiedAtSec } from "../reports/in-service";
import { generateLabScenario } from "./lab-workload";
import type { LabOrg } from "./lab-org";

const DAY_SEC = 86_400;
/** How much history the demo has, at least (the review's month plus a lookback week). */
export const HISTORY_DAYS = 35;

export type HistoryJob = {
  /** The simulation's job id. */
  key: string;
  cluster: string;
  budgetPath: string;
  /** The submitter's email. */
  user: string;
  name: string;
  gpus: number;
  minRuntimeSec: number;
  isResumable: boolean;
  priority: Priority;
  jobClass: string;
  state: "completed" | "preempted" | "cancelled";
  submittedSec: number;
  firstStartedSec: number | null;
  endedSec: number;
  workSec: number;
  remainingWorkSec: number;
};

export type HistoryRun = {
  /** The simulation's run id. */
  key: string;
  jobKey: string;
  cluster: string;
  budgetPath: string;
  gpus: number;
  placement: NodeSlice[];
  isAllocated: boolean;
  startSec: number;
  protectedUntilSec: number;
  endSec: number;
  endReason: "completed" | "preempted" | "node_down" | "cancelled";
};

/** A decision as the simulation gave it; its reason still names simulation ids and times. */
export type HistoryDecision = {
  cluster: string;
  kind: "start" | "preempt" | "drain";
  atSec: number;
  jobKey: string | null;
  runKey: string | null;
  reason: unknown;
};

export type HistoryNodeChange = {
  cluster: string;
  node: number;
  atSec: number;
  health: NodeHealth;
};

export type LabHistory = {
  startSec: number;
  endSec: number;
  jobs: HistoryJob[];
  runs: HistoryRun[];
  decisions: HistoryDecision[];
  nodeChanges: HistoryNodeChange[];
  /** The simulation itself (seconds from `startSec`), for comparing reports. */
  scenario: Scenario;
  result: SimulationResult;
};

export type LabHistoryOptions = {
  org: LabOrg;
  /** The moment the history ends (the seed's "now"), epoch seconds; whole seconds are kept. */
  endSec: number;
  seed: number;
  /** Default {@link HISTORY_DAYS}; the history starts exactly that many days before its end. */
  days?: number;
  /** Default the org's clusters. */
  clusters?: LabOrg["clusters"];
};

/**
 * `days` days before `endSec` (whole seconds). Not aligned on a day or an hour: the same
 * workload then reaches "now" whatever the time of day, so the demo's ranks at the handover,
 * and the tests that rely on them, are the same on every run.
 */
export function historyStartSec(endSec: number, days: number = HISTORY_DAYS): number {
  return Math.floor(endSec) - days * DAY_SEC;
}

/**
 * Simulates the lab's history up to `endSec` and returns what the seed stores.
 *
 * @example simulateLabHistory({ org: buildLabOrg(DEMO_ORG_SEED), endSec: nowSec, seed: 2026 }).jobs.length
 */
export function simulateLabHistory(options: LabHistoryOptions): LabHistory {
  const endSec = Math.floor(options.endSec);
  const startSec = historyStartSec(endSec, options.days);
  const horizonSec = endSec - startSec;
  const clusters = options.clusters ?? options.org.clusters;
  const file = generateLabScenario({
    days: Math.ceil(horizonSec / DAY_SEC),
    seed: options.seed,
    clusters: clusters.map((cluster) => ({ ...cluster })),
    org: options.org,
  });
  const parsed = parseScenario(file);
  if (!parsed.ok) throw new Error(`The lab scenario is invalid: ${parsed.issues[0]?.message}`);
  const scenario: Scenario = {
    ...parsed.value,
    jobs: parsed.value.jobs.filter((job) => job.submitSec < horizonSec),
    nodeEvents: parsed.value.nodeEvents.filter((event) => event.atSec < horizonSec),
    horizonSec,
  };
  // Every start is stored as a decision, with its reason.
  const result = runSimulation(scenario, createAllocationScheduler, { keepsStartReasons: true });
  const at = (sec: number) => startSec + sec;

  const jobs: HistoryJob[] = [];
  const runs: HistoryRun[] = [];
  const decisions: HistoryDecision[] = [];
  for (const record of result.jobs) {
    const { job } = record;
    let ranSec = 0;
    for (const run of record.runs) {
      ranSec += run.endSec - run.startSec;
      const endReason =
        run.endReason === "running"
          ? "cancelled"
          : run.endReason === "node-down"
            ? "node_down"
            : run.endReason;
      runs.push({
        key: run.runId,
        jobKey: job.id,
        cluster: job.cluster,
        budgetPath: job.budgetId,
        gpus: run.gpus,
        placement: run.placement,
        isAllocated: run.isAllocated,
        startSec: at(run.startSec),
        protectedUntilSec: at(run.protectedUntilSec),
        endSec: at(run.endSec),
        endReason,
      });
      decisions.push({
        cluster: job.cluster,
        kind: "start",
        atSec: at(run.startSec),
        jobKey: job.id,
        runKey: run.runId,
        reason: run.startReason ?? null,
      });
      if (run.endReason === "preempted") {
        decisions.push({
          cluster: job.cluster,
          kind: "preempt",
          atSec: at(run.endSec),
          jobKey: job.id,
          runKey: run.runId,
          reason: run.reason ?? null,
        });
      }
    }
    const isOpen = record.state === "pending" || record.state === "running";
    jobs.push({
      key: job.id,
      cluster: job.cluster,
      budgetPath: job.budgetId,
      user: job.userId,
      name: `${job.jobClass}-${job.id}`,
      gpus: job.gpus,
      minRuntimeSec: job.minRuntimeSec,
      isResumable: job.isResumable,
      priority: job.priority,
      jobClass: job.jobClass,
      state: isOpen ? "cancelled" : record.state === "completed" ? "completed" : "preempted",
      submittedSec: at(job.submitSec),
      firstStartedSec: record.firstStartSec === null ? null : at(record.firstStartSec),
      endedSec: at(record.endSec ?? horizonSec),
      workSec: job.workSec,
      remainingWorkSec: record.state === "completed" ? 0 : Math.max(0, job.workSec - ranSec),
    });
  }
  const nodeChanges = listNodeChanges(scenario, at);
  decisions.push(...listDrains(runs, nodeChanges, endSec));
  decisions.sort((a, b) => a.atSec - b.atSec);
  return { startSec, endSec, jobs, runs, decisions, nodeChanges, scenario, result };
}

/** The scenario's node events as applied (no repeats), then back to healthy at the handover. */
function listNodeChanges(scenario: Scenario, at: (sec: number) => number): HistoryNodeChange[] {
  const healthOf = new Map<string, NodeHealth>();
  const changes: HistoryNodeChange[] = [];
  for (const event of [...scenario.nodeEvents].sort((a, b) => a.atSec - b.atSec)) {
    const key = `${event.cluster}/${event.node}`;
    if ((healthOf.get(key) ?? "healthy") === event.state) continue;
    healthOf.set(key, event.state);
    changes.push({
      cluster: event.cluster,
      node: event.node,
      atSec: at(event.atSec),
      health: event.state,
    });
  }
  const endSec = at(scenario.horizonSec ?? 0);
  for (const [key, health] of healthOf) {
    if (health === "healthy") continue;
    const [cluster = "", node = "0"] = key.split("/");
    changes.push({ cluster, node: Number(node), atSec: endSec, health: "healthy" });
  }
  return changes;
}

/**
 * Drains that finished without a human: a draining node whose last run ended (or that was
 * empty) before it changed health again and before the handover, as the simulator counts them.
 */
function listDrains(
  runs: readonly HistoryRun[],
  changes: readonly HistoryNodeChange[],
  endSec: number,
): HistoryDecision[] {
  const drains: HistoryDecision[] = [];
  changes.forEach((change, index) => {
    if (change.health !== "draining") return;
    const next = changes
      .slice(index + 1)
      .find((later) => later.cluster === change.cluster && later.node === change.node);
    const untilSec = Math.min(next?.atSec ?? endSec, endSec);
    const onNode = runs.filter(
      (run) =>
        run.cluster === change.cluster && run.placement.some((slice) => slice.node === change.node),
    );
    const emptySec = drainEmptiedAtSec(onNode, change.atSec, untilSec);
    if (emptySec < untilSec) {
      drains.push({
        cluster: change.cluster,
        kind: "drain",
        atSec: emptySec,
        jobKey: null,
        runKey: null,
        reason: { rule: "drain-complete", atSec: emptySec, node: change.node },
      });
    }
  });
  return drains;
}
