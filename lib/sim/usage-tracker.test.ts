import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeLeafUsage, type UsageRun } from "../engine";
import { createUsageTracker } from "./usage-tracker";

describe("createUsageTracker", () => {
  it("counts a running run up to now", () => {
    const usage = createUsageTracker(7 * 86_400);
    usage.addRate("a", 16, 0);
    expect(usage.usageAt("a", 3600)).toBe(57_600);
  });

  it("drops usage older than the window", () => {
    const usage = createUsageTracker(100);
    usage.addRate("a", 2, 0);
    usage.addRate("a", -2, 50);
    expect(usage.usageAt("a", 60)).toBe(100);
    expect(usage.usageAt("a", 120)).toBe(60);
    expect(usage.usageAt("a", 150)).toBe(0);
    expect(usage.usageAt("b", 150)).toBe(0);
  });

  it("refuses to go back in time", () => {
    const usage = createUsageTracker(100);
    usage.usageAt("a", 50);
    expect(() => usage.usageAt("a", 40)).toThrow(/after/);
  });

  it("reads many leaves at once as one at a time, leaves that start running later included", () => {
    const usage = createUsageTracker(100);
    const leafIds = ["a", null, "b", "c"];
    const into = Float64Array.of(-1, -1, -1, -1);
    usage.addRate("a", 2, 0);
    usage.usagesAt(leafIds, 10, into);
    expect([...into]).toEqual([20, -1, 0, 0]);
    // "b" had no curve when the array was first read: it is looked up again.
    usage.addRate("b", 4, 20);
    usage.addRate("a", -2, 30);
    usage.usagesAt(leafIds, 50, into);
    expect([...into]).toEqual([60, -1, 120, 0]);
    expect([...into]).toEqual([usage.usageAt("a", 50), -1, usage.usageAt("b", 50), 0]);
    usage.usagesAt(leafIds, 150, into);
    expect([...into]).toEqual([0, -1, 400, 0]);
    expect(() => usage.usagesAt(leafIds, 140, into)).toThrow(/after/);
  });

  it("matches the engine's full rescan at every moment (property)", () => {
    const runArb = fc.record({
      budgetId: fc.constantFrom("a", "b", "c"),
      gpus: fc.integer({ min: 1, max: 8 }),
      startSec: fc.integer({ min: 0, max: 1000 }),
      lengthSec: fc.integer({ min: 0, max: 500 }),
    });
    fc.assert(
      fc.property(
        fc.array(runArb, { maxLength: 20 }),
        fc.integer({ min: 1, max: 400 }),
        (raw, lookbackSec) => {
          const runs: UsageRun[] = raw.map((run) => ({
            budgetId: run.budgetId,
            gpus: run.gpus,
            startSec: run.startSec,
            endSec: run.startSec + run.lengthSec,
            isAllocated: true,
          }));
          const changes = runs
            .flatMap((run) => [
              { atSec: run.startSec, budgetId: run.budgetId, delta: run.gpus },
              { atSec: run.endSec as number, budgetId: run.budgetId, delta: -run.gpus },
            ])
            .sort((a, b) => a.atSec - b.atSec);
          const tracker = createUsageTracker(lookbackSec);
          const leafIds = ["a", "b", "c"];
          const all = new Float64Array(3);
          let next = 0;
          for (let nowSec = 0; nowSec <= 1600; nowSec += 37) {
            while (next < changes.length && changes[next]!.atSec <= nowSec) {
              const change = changes[next++]!;
              tracker.addRate(change.budgetId, change.delta, change.atSec);
            }
            const expected = computeLeafUsage(runs, nowSec, { kind: "window", lookbackSec });
            tracker.usagesAt(leafIds, nowSec, all);
            leafIds.forEach((id, index) => {
              expect(tracker.usageAt(id, nowSec)).toBeCloseTo(expected[id] ?? 0, 6);
              expect(all[index]).toBe(tracker.usageAt(id, nowSec));
            });
          }
        },
      ),
    );
  });
});
