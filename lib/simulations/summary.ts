// What the results pages read: per-scheduler summaries and the wait buckets. Types and
// constants only, so that client components import nothing of the simulator.
import type { SimulationReport } from "../sim/report-types";

/** Upper bounds (seconds) of the wait buckets of {@link SchedulerSummary.waitHistogram}. */
export const WAIT_BUCKETS = [
  { label: "< 1 min", maxSec: 60 },
  { label: "1-10 min", maxSec: 600 },
  { label: "10 min-1 h", maxSec: 3600 },
  { label: "1-6 h", maxSec: 6 * 3600 },
  { label: "6-24 h", maxSec: 86_400 },
  { label: "> 1 day", maxSec: Infinity },
  { label: "never started", maxSec: null },
] as const;

/** A scheduler's report without its job list, plus the wait distribution per job class. */
export type SchedulerSummary = Omit<SimulationReport, "jobs"> & {
  jobCount: number;
  completedJobs: number;
  /** Per class: job counts in each {@link WAIT_BUCKETS} bucket. */
  waitHistogram: Record<string, number[]>;
};

/** What the results page reads: the scenario's shape and one summary per scheduler. */
export type SimulationSummary = {
  clusters: { name: string; gpuType: string; gpus: number }[];
  jobCount: number;
  lookbackSec: number;
  maxMinRuntimeSec: number;
  schedulers: Record<string, SchedulerSummary>;
};
