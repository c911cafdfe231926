// The columnar timeline format shared by the worker (which writes it) and the browser (which
// draws it). No imports: the browser bundle stays free of the simulator.

/** Numbers per segment in {@link TimelineData.segments}. */
export const SEGMENT_STRIDE = 9;
/** Offsets within one segment's numbers. */
export const SEG = {
  cluster: 0,
  node: 1,
  /** Bit i set: the run held GPU i of the node. */
  gpuMask: 2,
  startSec: 3,
  endSec: 4,
  job: 5,
  budget: 6,
  /** Bit 0: allocated; bits 1-2: end reason (see {@link END_REASONS}). */
  flags: 7,
  /** Index into `reasons`, or -1. */
  reason: 8,
} as const;

export const END_REASONS = ["completed", "preempted", "node-down", "running"] as const;
export type TimelineEndReason = (typeof END_REASONS)[number];

/**
 * One scheduler's timeline, columnar so that 100,000 runs stay a few megabytes of JSON:
 * strings are listed once and segments are flat numbers, {@link SEGMENT_STRIDE} per segment.
 */
export type TimelineData = {
  scheduler: string;
  horizonSec: number;
  clusters: { name: string; nodes: number; gpusPerNode: number }[];
  budgets: string[];
  jobs: string[];
  reasons: string[];
  segments: number[];
};

/** Both schedulers' timelines, as stored and served. */
export type SimulationTimelines = Record<string, TimelineData>;
