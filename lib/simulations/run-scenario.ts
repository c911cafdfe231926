import {
  buildReport,
  runSimulation,
  SCHEDULERS,
  type Scenario,
  type SchedulerName,
  type SimulationReport,
} from "../sim";
import { WAIT_BUCKETS, type SchedulerSummary, type SimulationSummary } from "./summary";
import { encodeTimeline } from "./timeline-data";
import type { TimelineData } from "./timeline-format";

/** Schedulers compared by a browser simulation, in column order. */
export const COMPARED_SCHEDULERS: SchedulerName[] = ["baseline", "allocation"];

export type SchedulerOutcome = {
  report: SimulationReport;
  summary: SchedulerSummary;
  /** null when not wanted. */
  timeline: TimelineData | null;
};

function summarise(scenario: Scenario, report: SimulationReport): SchedulerSummary {
  const { jobs, ...rest } = report;
  const classOf = new Map(scenario.jobs.map((job) => [job.id, job.jobClass]));
  const waitHistogram: Record<string, number[]> = {};
  for (const job of jobs) {
    const jobClass = classOf.get(job.id) ?? "training";
    const counts = (waitHistogram[jobClass] ??= WAIT_BUCKETS.map(() => 0));
    const bucket =
      job.waitSec === null
        ? WAIT_BUCKETS.length - 1
        : WAIT_BUCKETS.findIndex((b) => b.maxSec !== null && job.waitSec! < b.maxSec);
    counts[bucket] = (counts[bucket] ?? 0) + 1;
  }
  return {
    ...rest,
    jobCount: jobs.length,
    completedJobs: jobs.filter((job) => job.state === "completed").length,
    waitHistogram,
  };
}

/** The scenario-level part of a summary. */
export function describeScenario(scenario: Scenario): Omit<SimulationSummary, "schedulers"> {
  return {
    clusters: scenario.clusters.map((cluster) => ({
      name: cluster.name,
      gpuType: cluster.gpuType,
      gpus: cluster.nodes * cluster.gpusPerNode,
    })),
    jobCount: scenario.jobs.length,
    lookbackSec: scenario.lookbackSec,
    maxMinRuntimeSec: scenario.maxMinRuntimeSec,
  };
}

/**
 * Runs one scheduler on a scenario and builds its report, summary and timeline. `onProgress`
 * gets a fraction in [0, 1): clusters in turn, each by its clock against its last arrival (or
 * the horizon).
 */
export function runScheduler(
  scenario: Scenario,
  name: SchedulerName,
  options: { isTimelineWanted: boolean },
  onProgress: (fraction: number, clock: { cluster: string; nowSec: number }) => void = () => {},
): SchedulerOutcome {
  const clusterCount = scenario.clusters.length;
  const endByCluster = new Map<string, number>();
  for (const job of scenario.jobs)
    endByCluster.set(job.cluster, Math.max(endByCluster.get(job.cluster) ?? 1, job.submitSec));
  const result = runSimulation(scenario, SCHEDULERS[name], {
    onProgress(cluster, nowSec) {
      const index = scenario.clusters.findIndex((c) => c.name === cluster);
      const endSec = scenario.horizonSec ?? endByCluster.get(cluster) ?? 1;
      const within = Math.min(0.99, nowSec / Math.max(1, endSec));
      onProgress(Math.min(0.99, (Math.max(0, index) + within) / clusterCount), { cluster, nowSec });
    },
  });
  const report = buildReport(scenario, result);
  return {
    report,
    summary: summarise(scenario, report),
    timeline: options.isTimelineWanted ? encodeTimeline(scenario, result) : null,
  };
}
