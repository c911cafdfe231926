import { simulateCluster } from "./cluster-sim";
import type { Scenario } from "./scenario";
import type { SchedulerFactory } from "./scheduler";
import type { SimulationResult } from "./sim-types";

/** Options of {@link runSimulation}. */
export type SimulationOptions = {
  /** Called now and then with the cluster name and the clock in seconds (progress display). */
  onProgress?: (cluster: string, nowSec: number) => void;
};

/**
 * Runs a scenario under one scheduler, cluster by cluster, to its horizon (or until every job is
 * done when it has none). Pure and deterministic: the same scenario and policy give the same
 * result.
 *
 * `horizonSec` is the scenario's horizon, or else the moment of the last event on any cluster.
 *
 * @example runSimulation(scenario, createBaselineScheduler).jobs.length
 */
export function runSimulation(
  scenario: Scenario,
  factory: SchedulerFactory,
  options: SimulationOptions = {},
): SimulationResult {
  const outcomes = scenario.clusters.map((cluster) =>
    simulateCluster(scenario, cluster, factory, {
      ...(options.onProgress
        ? { onProgress: (nowSec: number) => options.onProgress?.(cluster.name, nowSec) }
        : {}),
    }),
  );
  const horizonSec =
    scenario.horizonSec ?? Math.max(0, ...outcomes.map((outcome) => outcome.cluster.lastEventSec));
  const byId = new Map(outcomes.flatMap((outcome) => outcome.records.map((r) => [r.job.id, r])));
  const jobs = scenario.jobs.flatMap((job) => {
    const record = byId.get(job.id);
    return record ? [record] : [];
  });
  return {
    scheduler: outcomes[0]?.schedulerName ?? "unknown",
    horizonSec,
    jobs,
    clusters: outcomes.map((outcome) => outcome.cluster),
  };
}
