import { describe, expect, it } from "vitest";
import type { TimelineData } from "@/lib/simulations/timeline-format";
import {
  findSegmentAt,
  indexTimeline,
  layoutBars,
  panWindow,
  sharedHorizonSec,
  runOrder,
  stepBarIndex,
  zoomWindow,
} from "./timeline-layout";

// Two clusters; cluster 0 has 2 nodes of 2 GPUs. Columns: cluster, node, gpuMask, start, end,
// job, budget, flags, reason.
const DATA: TimelineData = {
  scheduler: "allocation",
  horizonSec: 1000,
  clusters: [
    { name: "a", nodes: 2, gpusPerNode: 2 },
    { name: "b", nodes: 1, gpusPerNode: 8 },
  ],
  budgets: ["x", "y"],
  jobs: ["j1", "j2", "j3", "j4", "j5"],
  reasons: [],
  segments: [
    [0, 0, 0b11, 0, 100, 0, 0, 1, -1], // j1 on both GPUs of node 0
    [0, 1, 0b10, 50, 400, 1, 1, 3, -1], // j2 on GPU 1 of node 1, preempted
    [0, 0, 0b01, 100, 300, 2, 0, 1, -1], // j3 after j1 on GPU 0 of node 0
    [1, 0, 0xff, 0, 1000, 3, 1, 1, -1], // j4 on the other cluster
    [0, 1, 0b11, 500, 900, 4, 0, 0, -1], // j5 on node 1, unallocated
  ].flat(),
};

describe("timeline layout", () => {
  it("buckets one cluster's runs by GPU row in start order", () => {
    const index = indexTimeline(DATA, 0);
    expect(index.rows).toBe(4);
    expect(index.byRow).toEqual([[0, 2], [0], [4], [1, 4]]);
    expect(indexTimeline(DATA, 1).byRow.every((row) => row.length === 1)).toBe(true);
  });

  it("draws one bar per run and GPU row over the whole run: 6 bars for 4 runs on cluster a", () => {
    const bars = layoutBars(DATA, indexTimeline(DATA, 0), {
      startSec: 0,
      endSec: 1000,
      widthPx: 1000,
      rowHeightPx: 10,
    });
    expect(bars).toHaveLength(6);
    expect(bars[0]).toEqual({ x: 0, y: 0, width: 100, height: 10, segment: 0 });
    expect(bars.find((bar) => bar.segment === 1)).toEqual({
      x: 50,
      y: 30,
      width: 350,
      height: 10,
      segment: 1,
    });
  });

  it("draws only what the window shows, clipped to it", () => {
    const bars = layoutBars(DATA, indexTimeline(DATA, 0), {
      startSec: 200,
      endSec: 600,
      widthPx: 400,
      rowHeightPx: 1,
    });
    expect(bars.map((bar) => [bar.segment, bar.x, bar.width])).toEqual([
      [2, 0, 100],
      [4, 300, 100],
      [1, 0, 200],
      [4, 300, 100],
    ]);
  });

  it("draws nothing for an empty window (edge: zero width)", () => {
    const index = indexTimeline(DATA, 0);
    expect(
      layoutBars(DATA, index, { startSec: 5, endSec: 5, widthPx: 100, rowHeightPx: 1 }),
    ).toEqual([]);
  });

  it("finds the run under a point, and none in a gap or past the last run", () => {
    const index = indexTimeline(DATA, 0);
    expect(findSegmentAt(DATA, index, 0, 150)).toBe(2);
    expect(findSegmentAt(DATA, index, 1, 150)).toBeNull();
    expect(findSegmentAt(DATA, index, 3, 450)).toBeNull();
    expect(findSegmentAt(DATA, index, 3, 950)).toBeNull();
    expect(findSegmentAt(DATA, index, 9, 10)).toBeNull();
  });

  it("zooms around the anchor and pans inside the run", () => {
    expect(zoomWindow({ startSec: 0, endSec: 1000 }, 0.5, 500, 1000)).toEqual({
      startSec: 250,
      endSec: 750,
    });
    expect(zoomWindow({ startSec: 0, endSec: 1000 }, 4, 100, 1000)).toEqual({
      startSec: 0,
      endSec: 1000,
    });
    expect(zoomWindow({ startSec: 0, endSec: 100 }, 0.01, 0, 1000)).toEqual({
      startSec: 0,
      endSec: 60,
    });
    expect(panWindow({ startSec: 800, endSec: 900 }, 500, 1000)).toEqual({
      startSec: 900,
      endSec: 1000,
    });
    expect(panWindow({ startSec: 100, endSec: 200 }, -500, 1000)).toEqual({
      startSec: 0,
      endSec: 100,
    });
  });

  it("shares the longer horizon between a simulation's timelines (edge: none gives 1 s)", () => {
    expect(sharedHorizonSec([{ horizonSec: 39_600 }, { horizonSec: 46_800 }])).toBe(46_800);
    expect(sharedHorizonSec([{ horizonSec: 46_800 }, { horizonSec: 39_600 }])).toBe(46_800);
    expect(sharedHorizonSec([])).toBe(1);
  });

  it("steps through the bars in view by keyboard, stopping at either end", () => {
    expect(stepBarIndex(6, null, 1)).toBe(0);
    expect(stepBarIndex(6, null, -1)).toBe(5);
    expect(stepBarIndex(6, 0, 1)).toBe(1);
    expect(stepBarIndex(6, 3, -1)).toBe(2);
    expect(stepBarIndex(6, 5, 1)).toBe(5);
    expect(stepBarIndex(6, 0, -1)).toBe(0);
    expect(stepBarIndex(6, 9, 1)).toBe(0);
    expect(stepBarIndex(0, null, 1)).toBeNull();
  });
});

describe("runOrder", () => {
  it("keeps one bar per run, its topmost, ordered by start then row", () => {
    const bars = [
      { x: 30, y: 0, segment: 4 },
      { x: 10, y: 14, segment: 7 },
      { x: 30, y: 14, segment: 4 },
      { x: 10, y: 0, segment: 7 },
      { x: 10, y: 28, segment: 9 },
    ];
    expect(runOrder(bars)).toEqual([3, 4, 0]);
    expect(runOrder([])).toEqual([]);
  });
});
