import {
  buildReport,
  runSimulation,
  SCHEDULERS,
  type Scenario,
  type SchedulerName,
  type SimulationReport,
  type SimulationResult,
} from "../sim";
import { gzipJsonInBackground, type StoredBytes } from "./gzip";
import { WAIT_BUCKETS, type SchedulerSummary, type SimulationSummary } from "./summary";
import { encodeTimeline, encodeTimelineRuns } from "./timeline-data";
import { toTimelineRuns, type TimelineRuns } from "./timeline-runs";
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
 * A finished simulation's report, summary and timeline (null when not wanted): what a browser
 * simulation stores and a what-if reads, whether the clusters ran here or in threads.
 */
export function summariseRun(
  scenario: Scenario,
  result: SimulationResult,
  options: { isTimelineWanted: boolean },
): SchedulerOutcome {
  const report = buildReport(scenario, result);
  return {
    report,
    summary: summarise(scenario, report),
    timeline: options.isTimelineWanted ? encodeTimeline(scenario, result) : null,
  };
}

/**
 * What a browser simulation stores of one scheduler: its summary, its report as gzip JSON and
 * its timeline as JSON (UTF-8; the worker compresses both schedulers' timelines as one member).
 */
export type PackedOutcome = PackedReport & { timelineJson: Uint8Array<ArrayBuffer> };
export type PackedReport = { summary: SchedulerSummary; reportGz: StoredBytes };

/**
 * The summary and the gzip JSON report of a result; the JSON is compressed on the thread pool as
 * it is written.
 */
export async function packReport(
  scenario: Scenario,
  result: SimulationResult,
): Promise<PackedReport> {
  const report = buildReport(scenario, result);
  const summary = summarise(scenario, report);
  return { summary, reportGz: await gzipJsonInBackground(report) };
}

/** The timeline of a result as JSON, UTF-8. */
export function packTimeline(
  scenario: Scenario,
  result: SimulationResult,
): Uint8Array<ArrayBuffer> {
  return packTimelineRuns(scenario, toTimelineRuns(result));
}

/** {@link packTimeline} from the runs a cluster thread posts (lib/simulations/timeline-runs.ts). */
export function packTimelineRuns(scenario: Scenario, runs: TimelineRuns): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(encodeTimelineRuns(scenario, runs)));
}

/**
 * {@link summariseRun} with the timeline, ready to store: the report's JSON is compressed on the
 * thread pool while the timeline is built. (A cluster thread packs the report of a one-cluster
 * replay and posts the timeline's runs, for the worker to pack the timeline meanwhile:
 * lib/simulations/threads/cluster-threads.ts.)
 */
export async function packOutcome(
  scenario: Scenario,
  result: SimulationResult,
): Promise<PackedOutcome> {
  const report = packReport(scenario, result);
  const timelineJson = packTimeline(scenario, result);
  return { ...(await report), timelineJson };
}

/** Runs one scheduler on a scenario in this thread and builds its report, summary and timeline. */
export function runScheduler(
  scenario: Scenario,
  name: SchedulerName,
  options: { isTimelineWanted: boolean },
): SchedulerOutcome {
  return summariseRun(scenario, runSimulation(scenario, SCHEDULERS[name]), options);
}
