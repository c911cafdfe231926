import { simulateCluster } from "./cluster-sim";
import type { Scenario, SimJob } from "./scenario";
import type { SchedulerFactory } from "./scheduler";
import type { ClusterRecord, JobRecord, SimulationResult } from "./sim-types";

/** Options of {@link runSimulation} and {@link simulateClusters}. */
export type SimulationOptions = {
  /** Called now and then with the cluster name and the clock in seconds (progress display). */
  onProgress?: (cluster: string, nowSec: number) => void;
  /** Whether run records keep the reasons of their starts (`ClusterSimOptions`); default false. */
  keepsStartReasons?: boolean;
};

/**
 * One cluster's outcome without the scheduler's last view: plain data, so it can cross a thread
 * boundary (structured clone) and be merged with the other clusters' later.
 */
export type ClusterOutcome = {
  schedulerName: string;
  /** The cluster's jobs, in the cluster's submit order. */
  records: JobRecord[];
  cluster: ClusterRecord;
};

/**
 * Simulates the named clusters of a scenario under one scheduler, one after another, in the
 * order given. Clusters are independent (jobs, usage and ranks are per cluster), so simulating
 * them here in one call or in separate calls (threads) gives the same outcomes. Throws on a name
 * the scenario does not have.
 *
 * @example simulateClusters(scenario, ["h100"], createAllocationScheduler)[0].records.length
 */
export function simulateClusters(
  scenario: Scenario,
  clusterNames: readonly string[],
  factory: SchedulerFactory,
  options: SimulationOptions = {},
): ClusterOutcome[] {
  return clusterNames.map((name) => {
    const spec = scenario.clusters.find((cluster) => cluster.name === name);
    if (!spec) throw new Error(`The scenario has no cluster "${name}".`);
    const { schedulerName, records, cluster } = simulateCluster(scenario, spec, factory, {
      keepsStartReasons: options.keepsStartReasons === true,
      ...(options.onProgress
        ? { onProgress: (nowSec: number) => options.onProgress?.(name, nowSec) }
        : {}),
    });
    return { schedulerName, records, cluster };
  });
}

function matchRecordsById(scenario: Scenario, outcomes: readonly ClusterOutcome[]): JobRecord[] {
  const byId = new Map<string, JobRecord>();
  for (const outcome of outcomes)
    for (const record of outcome.records) byId.set(record.job.id, record);
  const jobs: JobRecord[] = [];
  for (const job of scenario.jobs) {
    const record = byId.get(job.id);
    if (record) jobs.push(record);
  }
  return jobs;
}

/**
 * The records in scenario order without a map by id (a year has a million): a cluster's records
 * are its jobs in submit order (stable), cut at the horizon, so sorting the indices of its jobs
 * the same way gives each record's place. Null when a record is not where expected.
 */
function placeRecords(scenario: Scenario, outcomes: readonly ClusterOutcome[]): JobRecord[] | null {
  const slots: (JobRecord | undefined)[] = new Array(scenario.jobs.length);
  for (const outcome of outcomes) {
    const indices: number[] = [];
    let isSorted = true;
    scenario.jobs.forEach((job, i) => {
      if (job.cluster !== outcome.cluster.name) return;
      const last = indices[indices.length - 1];
      if (last !== undefined && job.submitSec < (scenario.jobs[last] as SimJob).submitSec) {
        isSorted = false;
      }
      indices.push(i);
    });
    if (!isSorted) {
      indices.sort(
        (a, b) =>
          (scenario.jobs[a] as SimJob).submitSec - (scenario.jobs[b] as SimJob).submitSec || a - b,
      );
    }
    const { records } = outcome;
    if (records.length > indices.length) return null;
    for (let k = 0; k < records.length; k++) {
      const at = indices[k] as number;
      const record = records[k] as JobRecord;
      if (record.job.id !== scenario.jobs[at]?.id) return null;
      slots[at] = record;
    }
  }
  return slots.filter((record): record is JobRecord => record !== undefined);
}

/**
 * Merges per-cluster outcomes (one for each cluster of the scenario, in any order) into the
 * scenario's result: clusters in scenario order, jobs in scenario order. `horizonSec` is the
 * scenario's horizon, or else the moment of the last event on any cluster. Throws when a
 * cluster is missing or given twice.
 *
 * @example mergeClusterOutcomes(scenario, [...simulateClusters(scenario, ["b"], f), ...simulateClusters(scenario, ["a"], f)])
 */
export function mergeClusterOutcomes(
  scenario: Scenario,
  outcomes: readonly ClusterOutcome[],
): SimulationResult {
  const byCluster = new Map(outcomes.map((outcome) => [outcome.cluster.name, outcome]));
  if (
    byCluster.size !== outcomes.length ||
    outcomes.length !== scenario.clusters.length ||
    scenario.clusters.some((cluster) => !byCluster.has(cluster.name))
  ) {
    throw new Error(
      `Merging outcomes of ${outcomes.map((o) => o.cluster.name).join(", ") || "no cluster"} for a scenario of ${scenario.clusters.map((c) => c.name).join(", ")}.`,
    );
  }
  const ordered = scenario.clusters.map((cluster) => byCluster.get(cluster.name)!);
  const horizonSec =
    scenario.horizonSec ?? Math.max(0, ...ordered.map((outcome) => outcome.cluster.lastEventSec));
  const jobs = placeRecords(scenario, ordered) ?? matchRecordsById(scenario, ordered);
  return {
    scheduler: ordered[0]?.schedulerName ?? "unknown",
    horizonSec,
    jobs,
    clusters: ordered.map((outcome) => outcome.cluster),
  };
}

/**
 * Runs a scenario under one scheduler, cluster by cluster, to its horizon (or until every job is
 * done when it has none). Pure and deterministic: the same scenario and policy give the same
 * result. The same as merging {@link simulateClusters} of every cluster.
 *
 * @example runSimulation(scenario, createBaselineScheduler).jobs.length
 */
export function runSimulation(
  scenario: Scenario,
  factory: SchedulerFactory,
  options: SimulationOptions = {},
): SimulationResult {
  const names = scenario.clusters.map((cluster) => cluster.name);
  return mergeClusterOutcomes(scenario, simulateClusters(scenario, names, factory, options));
}
