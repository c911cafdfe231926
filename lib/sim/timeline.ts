import type { SimulationResult } from "./sim-types";

/** One run's hold on one node: which GPU indexes it had, from when to when (seconds). */
export type TimelineSegment = {
  cluster: string;
  node: number;
  /** GPU indexes within the node, ascending. */
  gpus: number[];
  startSec: number;
  endSec: number;
  jobId: string;
  runId: string;
  budget: string;
  allocated: boolean;
  endReason: string;
};

/** The picture of who held which GPU when, for a timeline chart. */
export type Timeline = { scheduler: string; horizonSec: number; segments: TimelineSegment[] };

type Hold = { segment: TimelineSegment; count: number };

/**
 * Per-GPU run segments of a simulation. The simulator counts GPUs per node; this assigns GPU
 * indexes after the fact, node by node in time order (ends before starts at the same moment,
 * lowest free index first), so no index is ever held by two runs at once. Segments come ordered
 * by cluster, node, start and first GPU. Deterministic.
 *
 * @example buildTimeline(result).segments[0] // { cluster: "h100", node: 3, gpus: [0, 1], ... }
 */
export function buildTimeline(result: SimulationResult): Timeline {
  // Holds of each node of each cluster, in run order.
  const holdsByCluster = new Map<string, Hold[][]>();
  for (const record of result.jobs) {
    for (const run of record.runs) {
      let nodes = holdsByCluster.get(run.cluster);
      if (!nodes) holdsByCluster.set(run.cluster, (nodes = []));
      for (const slice of run.placement) {
        (nodes[slice.node] ??= []).push({
          count: slice.gpus,
          segment: {
            cluster: run.cluster,
            node: slice.node,
            gpus: [],
            startSec: run.startSec,
            endSec: run.endSec,
            jobId: run.jobId,
            runId: run.runId,
            budget: run.budgetId,
            allocated: run.isAllocated,
            endReason: run.endReason,
          },
        });
      }
    }
  }
  const segments: TimelineSegment[] = [];
  for (const cluster of [...holdsByCluster.keys()].sort()) {
    for (const holds of holdsByCluster.get(cluster)!) {
      if (holds) for (const segment of assignGpus(holds)) segments.push(segment);
    }
  }
  return { scheduler: result.scheduler, horizonSec: result.horizonSec, segments };
}

/**
 * One node's segments with their GPU indexes, by start and first GPU. Edges are numbered
 * 2 x hold + (1 for a start), sorted by time, ends before starts, then by hold.
 */
function assignGpus(holds: readonly Hold[]): TimelineSegment[] {
  const atSec = new Float64Array(holds.length * 2);
  holds.forEach(({ segment }, i) => {
    atSec[2 * i] = segment.endSec;
    atSec[2 * i + 1] = segment.startSec;
  });
  const edges = new Int32Array(holds.length * 2).map((_, i) => i);
  edges.sort((a, b) => atSec[a]! - atSec[b]! || (a & 1) - (b & 1) || a - b);
  const taken: boolean[] = [];
  const segments: TimelineSegment[] = [];
  for (const edge of edges) {
    const { segment, count } = holds[edge >> 1]!;
    const isInstant = segment.endSec === segment.startSec;
    if ((edge & 1) === 0) {
      if (!isInstant) for (const gpu of segment.gpus) taken[gpu] = false;
      continue;
    }
    for (let gpu = 0; segment.gpus.length < count; gpu++) {
      if (!taken[gpu]) {
        taken[gpu] = !isInstant;
        segment.gpus.push(gpu);
      }
    }
    segments.push(segment);
  }
  return segments.sort((a, b) => a.startSec - b.startSec || (a.gpus[0] ?? 0) - (b.gpus[0] ?? 0));
}
