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
 * One side-by-side row of the comparison that decided a preemption (docs/ranking.md): the node
 * on the preemptor's side and the one on the victim's, each with its usage of share (null: no
 * share).
 */
export type TimelineComparisonRow = {
  higher: string;
  higherRatio: number | null;
  lower: string;
  lowerRatio: number | null;
};

/**
 * The comparison that decided a preemption: first where the two budgets' paths part (when that
 * is above the leaves), then the leaves themselves.
 */
export type TimelineComparison = TimelineComparisonRow[];

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
  /** The comparisons that decided preemptions, each listed once (see `comparisonOfReason`). */
  comparisons?: TimelineComparison[];
  /**
   * Per entry of `reasons`, the index of the comparison that decided it in `comparisons`, or -1
   * (a drain, the baseline's priorities). Both absent from timelines stored before they were.
   */
  comparisonOfReason?: number[];
  segments: number[];
};

/** Both schedulers' timelines, as stored and served. */
export type SimulationTimelines = Record<string, TimelineData>;
