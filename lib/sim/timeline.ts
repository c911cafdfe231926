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
 * lowest free index first), so no index is ever held by two runs at once. Deterministic.
 *
 * @example buildTimeline(result).segments[0] // { cluster: "h100", node: 3, gpus: [0, 1], ... }
 */
export function buildTimeline(result: SimulationResult): Timeline {
  const holdsByNode = new Map<string, Hold[]>();
  for (const record of result.jobs) {
    for (const run of record.runs) {
      for (const slice of run.placement) {
        const key = `${run.cluster}\u0000${slice.node}`;
        const holds = holdsByNode.get(key) ?? [];
        holds.push({
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
        holdsByNode.set(key, holds);
      }
    }
  }
  const segments: TimelineSegment[] = [];
  for (const holds of holdsByNode.values()) {
    type Edge = { atSec: number; isStart: boolean; hold: Hold };
    const edges: Edge[] = holds.flatMap((hold) => [
      { atSec: hold.segment.startSec, isStart: true, hold },
      { atSec: hold.segment.endSec, isStart: false, hold },
    ]);
    edges.sort((a, b) => a.atSec - b.atSec || Number(a.isStart) - Number(b.isStart));
    const taken: boolean[] = [];
    for (const edge of edges) {
      const { segment, count } = edge.hold;
      const isInstant = segment.endSec === segment.startSec;
      if (!edge.isStart) {
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
  }
  segments.sort(
    (a, b) =>
      (a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0) ||
      a.node - b.node ||
      a.startSec - b.startSec ||
      (a.gpus[0] ?? 0) - (b.gpus[0] ?? 0),
  );
  return { scheduler: result.scheduler, horizonSec: result.horizonSec, segments };
}
