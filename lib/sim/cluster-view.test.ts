import { describe, expect, it } from "vitest";
import { createLazyView, type ViewFixed, type ViewSources } from "./cluster-view";
import { createUsageTracker } from "./usage-tracker";

const FIXED: ViewFixed = {
  cluster: { name: "c", nodes: [], lookbackSec: 100, maxMinRuntimeSec: 3600 },
  tree: [],
  freeGpus: [],
};
const NO_DELTAS = { newlyPending: [], runsStarted: [], runsEnded: [] };

function viewAt(nowSec: number, sources: ViewSources) {
  return createLazyView(nowSec, FIXED, NO_DELTAS, 0, sources);
}

describe("createLazyView", () => {
  it("reads many leaves' usage as usageOf does, before and after the snapshot is built", () => {
    const usage = createUsageTracker(100);
    usage.addRate("a", 2, 0);
    usage.addRate("b", 1, 40);
    const sources: ViewSources = {
      listPending: () => [],
      listRunning: () => [],
      snapshotUsage: (atSec) => usage.snapshot(atSec),
      usageAt: (leafId, atSec) => usage.usageAt(leafId, atSec),
      usagesAt: (leafIds, atSec, into) => usage.usagesAt(leafIds, atSec, into),
    };
    const leafIds = [null, "a", "b", "never"];
    const first = viewAt(60, sources);
    const read = Float64Array.of(-1, -1, -1, -1);
    first.usagesOf(leafIds, read);
    expect([...read]).toEqual([-1, 120, 20, 0]);

    const second = viewAt(70, sources);
    expect(second.usageByLeaf).toEqual({ a: 140, b: 30 });
    const fromSnapshot = Float64Array.of(-1, -1, -1, -1);
    second.usagesOf(leafIds, fromSnapshot);
    expect([...fromSnapshot]).toEqual([-1, second.usageOf("a"), second.usageOf("b"), 0]);
    expect([...fromSnapshot]).toEqual([-1, 140, 30, 0]);
  });
});
