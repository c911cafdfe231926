import { describe, expect, it } from "vitest";
import { generateLabScenario, WORKLOAD_PROFILES } from "../demo/lab-workload";
import { buildReport } from "./metrics";
import { parseScenario } from "./scenario";
import { SCHEDULERS } from "./schedulers";
import { runSimulation } from "./simulate";

// The `reference` policy is where rules are tried before the fast pass has them
// (docs/simulations.md): it must decide what `allocation` decides, on a whole workload.
describe("the reference policy", () => {
  it("reports what allocation reports on three days of lab-whole-node, under its own name", () => {
    const profile = WORKLOAD_PROFILES["lab-whole-node"]!;
    const parsed = parseScenario(generateLabScenario({ days: 3, seed: 5, profile }));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const scenario = parsed.value;
    const allocation = buildReport(scenario, runSimulation(scenario, SCHEDULERS.allocation));
    const reference = buildReport(scenario, runSimulation(scenario, SCHEDULERS.reference));
    expect(reference.scheduler).toBe("reference");
    expect({ ...reference, scheduler: "allocation" }).toEqual(allocation);
    // The workload is busy enough to exercise preemption and waiting, not only free starts.
    expect(allocation.preemptions).toBeGreaterThan(0);
    expect(allocation.jobs.some((job) => job.waitSec !== null && job.waitSec > 3600)).toBe(true);
  }, 60_000);

  it("refuses a scenario whose budget tree is invalid, naming itself", () => {
    const parsed = parseScenario(generateLabScenario({ days: 1, seed: 1 }));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const scenario = { ...parsed.value, tree: [] };
    expect(() => SCHEDULERS.reference(scenario, scenario.clusters[0]!)).toThrow(
      /^reference: the budget tree is invalid/,
    );
  });
});
