import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateBudgetTree } from "../engine";
import { createAllocationScheduler } from "./allocation-scheduler";
import { runReferenceOnView } from "./reference-scheduler";
import { parseScenario } from "./scenario";
import type { SchedulerFactory } from "./scheduler";
import { runSimulation } from "./simulate";

// The simulator's incremental path (standing queue and runs kept between passes, quiet passes
// passed over, ADR 012-022) decides at every pass exactly what the engine's reference pass
// decides on the same moment's lists (lib/engine/reference-pass.ts).

const jobArb = fc.record({
  budget: fc.constantFrom("a/x", "a/y", "a/z", "b/u", "b/w", "c"),
  submit: fc.integer({ min: 0, max: 30_000 }),
  gpus: fc.constantFrom(1, 1, 2, 3, 4, 6, 8, 12, 16, 24),
  work: fc.integer({ min: 60, max: 30_000 }),
  minRuntime: fc.constantFrom(0, 60, 900, 900, 3600, 7200),
  resumable: fc.boolean(),
  priority: fc.constantFrom("low", "normal", "high"),
});
const eventArb = fc.record({
  at: fc.integer({ min: 0, max: 40_000 }),
  node: fc.integer({ min: 0, max: 3 }),
  state: fc.constantFrom("healthy", "draining", "down"),
});
const scenarioArb = fc
  .record({
    jobs: fc.array(jobArb, { minLength: 1, maxLength: 40 }),
    nodeEvents: fc.array(eventArb, { maxLength: 4 }),
    weights: fc.tuple(fc.constantFrom(0, 1, 2, 3), fc.constantFrom(1, 2), fc.constantFrom(0, 1)),
  })
  .map(({ jobs, nodeEvents, weights }) => {
    const result = parseScenario({
      clusters: [{ name: "c", gpuType: "H100", nodes: 4, gpusPerNode: 8 }],
      tree: {
        name: "root",
        children: [
          {
            name: "a",
            weight: weights[0],
            children: [{ name: "x" }, { name: "y", weight: 2 }, { name: "z", weight: 3 }],
          },
          { name: "b", weight: weights[1], children: [{ name: "u" }, { name: "w" }] },
          { name: "c", weight: weights[2] },
        ],
      },
      settings: { lookback: "6h" },
      jobs: jobs.map((job, i) => ({ id: `j${i}`, cluster: "c", ...job })),
      nodeEvents: nodeEvents.map((event) => ({ cluster: "c", ...event })),
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.value;
  });

/** The allocation scheduler, each plan checked against the reference pass on the view's lists. */
const checkedAgainstReference = (seen: { passes: number; decided: number }): SchedulerFactory => {
  return (scenario, cluster) => {
    const inner = createAllocationScheduler(scenario, cluster);
    const checked = validateBudgetTree(scenario.tree);
    if (!checked.ok) throw new Error("bad tree");
    const tree = checked.value;
    return {
      name: inner.name,
      plan(view) {
        const plan = inner.plan(view);
        const expected = runReferenceOnView(tree, view);
        expect(plan.starts).toEqual(expected.starts);
        expect(plan.preemptions).toEqual(expected.preemptions);
        seen.passes += 1;
        if (expected.starts.length + expected.preemptions.length > 0) seen.decided += 1;
        return plan;
      },
    };
  };
};

describe("the simulator's allocation path against the reference pass", () => {
  it("decides at every pass what the reference pass decides on the view's lists", () => {
    const seen = { passes: 0, decided: 0 };
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        runSimulation(scenario, checkedAgainstReference(seen));
      }),
      { numRuns: 60 },
    );
    // The comparisons met many passes, and many that decided something.
    expect(seen.passes).toBeGreaterThan(1000);
    expect(seen.decided).toBeGreaterThan(300);
  }, 60_000);
});
