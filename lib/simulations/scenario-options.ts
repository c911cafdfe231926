import { parseDurationSec } from "../sim/duration";
import type { ScenarioFile } from "../sim/scenario-schema";

/** The options of a simulation, as stored with it (see lib/validation/simulations.ts). */
export type SimulationOptions = {
  /** Lookback window W, a scenario duration such as "7d". */
  lookback?: string | undefined;
  /** The cluster maximum of a job's minimum runtime, e.g. "8h". */
  maxMinRuntime?: string | undefined;
  /** Resize every cluster to this many GPUs (whole nodes); jobs wider than it are narrowed. */
  clusterGpus?: number | undefined;
  /** Days of generated workload, or of the trace from its start. */
  days?: number | undefined;
  seed?: number | undefined;
};

/** Defaults of the built-in choices. */
export const LAB_DEFAULT_DAYS = 14;
export const TREE_DEFAULT_DAYS = 14;
export const DEFAULT_SEED = 1;
export const PHILLY_DEFAULT_GPUS = 384;

/**
 * Whether {@link applySimulationOptions} changes a file with these options; without them (days
 * and seed only shape a built-in workload) it returns the file as it was.
 */
export function hasFileOptions(options: SimulationOptions): boolean {
  return Boolean(options.lookback || options.maxMinRuntime || options.clusterGpus);
}

/**
 * Applies a person's options to a scenario file without mutating it: the lookback window and
 * the maximum minimum runtime go to `settings` (longer minimum runtimes are capped to it, as a
 * cluster would refuse them), `clusterGpus` resizes every cluster to whole nodes and narrows
 * wider jobs to the cluster. Unknown or absent options leave the file as it is.
 *
 * @example applySimulationOptions(file, { lookback: "3d" }).settings // { lookback: "3d", ... }
 */
export function applySimulationOptions(
  file: ScenarioFile,
  options: SimulationOptions,
): ScenarioFile {
  const settings = { ...file.settings };
  if (options.lookback) settings.lookback = options.lookback;
  if (options.maxMinRuntime) settings.maxMinRuntime = options.maxMinRuntime;
  const maxMinRuntimeSec = options.maxMinRuntime ? parseDurationSec(options.maxMinRuntime) : null;
  const clusters = Array.isArray(file.clusters)
    ? file.clusters.map((cluster) => {
        if (!options.clusterGpus || typeof cluster !== "object" || cluster === null) return cluster;
        const gpusPerNode = cluster.gpusPerNode ?? 8;
        return { ...cluster, nodes: Math.max(1, Math.ceil(options.clusterGpus / gpusPerNode)) };
      })
    : file.clusters;
  const totalByName = new Map<string, number>();
  for (const cluster of Array.isArray(clusters) ? clusters : []) {
    if (typeof cluster === "object" && cluster !== null)
      totalByName.set(cluster.name, cluster.nodes * (cluster.gpusPerNode ?? 8));
  }
  const isChangingJobs = maxMinRuntimeSec !== null || options.clusterGpus !== undefined;
  const jobs =
    isChangingJobs && Array.isArray(file.jobs)
      ? file.jobs.map((job) => {
          if (typeof job !== "object" || job === null) return job;
          const next = { ...job };
          const total = totalByName.get(job.cluster);
          if (options.clusterGpus && total !== undefined && typeof job.gpus === "number")
            next.gpus = Math.min(job.gpus, total);
          if (maxMinRuntimeSec !== null && job.minRuntime !== undefined) {
            const sec = parseDurationSec(job.minRuntime);
            if (sec !== null && sec > maxMinRuntimeSec) next.minRuntime = maxMinRuntimeSec;
          }
          return next;
        })
      : file.jobs;
  return { ...file, settings, clusters, jobs };
}

/** "1 day", "14 days". */
export function formatDays(days: number): string {
  return `${days} day${days === 1 ? "" : "s"}`;
}

/** Describes options for lists: "lookback 3d · max min runtime 4h · 384 GPUs · 14 days". */
export function describeOptions(options: SimulationOptions): string {
  const parts: string[] = [];
  if (options.lookback) parts.push(`lookback ${options.lookback}`);
  if (options.maxMinRuntime) parts.push(`max min runtime ${options.maxMinRuntime}`);
  if (options.clusterGpus) parts.push(`${options.clusterGpus.toLocaleString("en-US")} GPUs`);
  if (options.days) parts.push(formatDays(options.days));
  if (options.seed !== undefined) parts.push(`seed ${options.seed}`);
  return parts.length > 0 ? parts.join(" · ") : "defaults";
}
