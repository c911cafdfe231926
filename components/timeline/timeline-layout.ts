// Pure geometry of the GPU timeline: which runs sit on which GPU row, and the rectangles of
// those in view. The canvas component only paints what this returns.
import { SEG, SEGMENT_STRIDE, type TimelineData } from "@/lib/simulations/timeline-format";

/** Segments bucketed by GPU row of one cluster; each row's segments sorted by start. */
export type TimelineIndex = {
  cluster: number;
  gpusPerNode: number;
  rows: number;
  /** Per row, segment numbers (index / SEGMENT_STRIDE) in start order. */
  byRow: number[][];
};

/** The visible window: seconds on x, rows on y, in pixels. */
export type TimelineView = {
  startSec: number;
  endSec: number;
  widthPx: number;
  rowHeightPx: number;
};

/** One rectangle to paint: a run on one GPU row. */
export type Bar = { x: number; y: number; width: number; height: number; segment: number };

/** The start and end of segment `s`, seconds. */
export function segmentTimes(data: TimelineData, s: number): [number, number] {
  const at = s * SEGMENT_STRIDE;
  return [data.segments[at + SEG.startSec] ?? 0, data.segments[at + SEG.endSec] ?? 0];
}

/**
 * Buckets one cluster's segments by GPU row (row = node * gpusPerNode + GPU index). A GPU is
 * held by one run at a time, so within a row both starts and ends ascend.
 *
 * @example indexTimeline(data, 0).byRow[9] // runs that held GPU 1 of node 1 (8 GPUs a node)
 */
export function indexTimeline(data: TimelineData, cluster: number): TimelineIndex {
  const spec = data.clusters[cluster] ?? { nodes: 0, gpusPerNode: 1 };
  const rows = spec.nodes * spec.gpusPerNode;
  const byRow: number[][] = Array.from({ length: rows }, () => []);
  const count = data.segments.length / SEGMENT_STRIDE;
  for (let s = 0; s < count; s++) {
    const at = s * SEGMENT_STRIDE;
    if (data.segments[at + SEG.cluster] !== cluster) continue;
    const node = data.segments[at + SEG.node] ?? 0;
    let mask = data.segments[at + SEG.gpuMask] ?? 0;
    for (let gpu = 0; mask > 0 && gpu < spec.gpusPerNode; gpu++) {
      if (mask % 2 === 1) byRow[node * spec.gpusPerNode + gpu]?.push(s);
      mask = Math.floor(mask / 2);
    }
  }
  for (const row of byRow) row.sort((a, b) => segmentTimes(data, a)[0] - segmentTimes(data, b)[0]);
  return { cluster, gpusPerNode: spec.gpusPerNode, rows, byRow };
}

/** First position in `row` whose segment ends after `atSec` (binary search). */
function firstEndingAfter(data: TimelineData, row: number[], atSec: number): number {
  let lo = 0;
  let hi = row.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (segmentTimes(data, row[mid]!)[1] > atSec) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The rectangles of every run visible in the view, clipped to it: one per run and GPU row.
 * Only the visible time range of each row is visited (binary search), so a 50,000-run timeline
 * zoomed to a day costs what that day holds.
 *
 * @example layoutBars(data, index, { startSec: 0, endSec: 3600, widthPx: 600, rowHeightPx: 4 })
 */
export function layoutBars(data: TimelineData, index: TimelineIndex, view: TimelineView): Bar[] {
  const spanSec = view.endSec - view.startSec;
  if (spanSec <= 0 || view.widthPx <= 0) return [];
  const pxPerSec = view.widthPx / spanSec;
  const bars: Bar[] = [];
  index.byRow.forEach((row, rowNumber) => {
    for (let i = firstEndingAfter(data, row, view.startSec); i < row.length; i++) {
      const segment = row[i]!;
      const [startSec, endSec] = segmentTimes(data, segment);
      if (startSec >= view.endSec) break;
      const x = (Math.max(startSec, view.startSec) - view.startSec) * pxPerSec;
      const right = (Math.min(endSec, view.endSec) - view.startSec) * pxPerSec;
      bars.push({
        x,
        y: rowNumber * view.rowHeightPx,
        width: right - x,
        height: view.rowHeightPx,
        segment,
      });
    }
  });
  return bars;
}

/** The segment under a point of the view (row and time), or null. */
export function findSegmentAt(
  data: TimelineData,
  index: TimelineIndex,
  rowNumber: number,
  atSec: number,
): number | null {
  const row = index.byRow[rowNumber];
  if (!row) return null;
  const i = firstEndingAfter(data, row, atSec);
  const segment = row[i];
  if (segment === undefined) return null;
  return segmentTimes(data, segment)[0] <= atSec ? segment : null;
}

/**
 * Zooms a time window by `factor` (below 1 zooms in) around `anchorSec`, kept inside
 * [0, horizonSec] and at least `minSpanSec` wide.
 */
export function zoomWindow(
  window: { startSec: number; endSec: number },
  factor: number,
  anchorSec: number,
  horizonSec: number,
  minSpanSec = 60,
): { startSec: number; endSec: number } {
  const span = Math.min(
    horizonSec,
    Math.max(minSpanSec, (window.endSec - window.startSec) * factor),
  );
  const ratio = (anchorSec - window.startSec) / Math.max(1e-9, window.endSec - window.startSec);
  return panWindow(
    { startSec: anchorSec - ratio * span, endSec: anchorSec - ratio * span + span },
    0,
    horizonSec,
  );
}

/** Moves a time window by `deltaSec`, kept inside [0, horizonSec]. */
export function panWindow(
  window: { startSec: number; endSec: number },
  deltaSec: number,
  horizonSec: number,
): { startSec: number; endSec: number } {
  const span = Math.min(horizonSec, window.endSec - window.startSec);
  const startSec = Math.min(Math.max(0, window.startSec + deltaSec), horizonSec - span);
  return { startSec, endSec: startSec + span };
}

/**
 * The time axis the timelines of one simulation share: the longest horizon, at least 1 s, so
 * that side by side the same x is the same moment in every timeline.
 *
 * @example sharedHorizonSec([{ horizonSec: 39_600 }, { horizonSec: 46_800 }]) // 46_800
 */
export function sharedHorizonSec(timelines: readonly { horizonSec: number }[]): number {
  return Math.max(1, ...timelines.map((timeline) => timeline.horizonSec));
}

/**
 * One bar per run (its topmost), in the order the runs start, left to right then top to bottom:
 * what the keyboard steps through. A run on 8 GPUs is drawn as 8 bars, one a row.
 *
 * @example runOrder([{ x: 9, y: 0, segment: 1 }, { x: 0, y: 14, segment: 2 }, { x: 9, y: 14, segment: 1 }]) // [1, 0]
 */
export function runOrder(bars: readonly Pick<Bar, "x" | "y" | "segment">[]): number[] {
  const first = new Map<number, number>();
  bars.forEach((bar, i) => {
    const seen = first.get(bar.segment);
    if (seen === undefined || bar.y < bars[seen]!.y) first.set(bar.segment, i);
  });
  return [...first.values()].sort((a, b) => bars[a]!.x - bars[b]!.x || bars[a]!.y - bars[b]!.y);
}

/**
 * The index of the bar `step` places after (or, negative, before) bar `at` of `count`, for
 * stepping through the runs in view by keyboard: from none, the first (or last); kept within
 * the bars; null when none are drawn.
 *
 * @example stepBarIndex(6, 5, 1) // 5: the last bar stays the last
 */
export function stepBarIndex(count: number, at: number | null, step: number): number | null {
  if (count <= 0) return null;
  if (at === null || at < 0 || at >= count) return step >= 0 ? 0 : count - 1;
  return Math.min(count - 1, Math.max(0, at + step));
}
