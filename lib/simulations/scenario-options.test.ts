import { describe, expect, it } from "vitest";
import { parseScenario, type ScenarioFile } from "../sim";
import { applySimulationOptions, describeOptions, hasFileOptions } from "./scenario-options";

const FILE: ScenarioFile = {
  clusters: [{ name: "c1", gpuType: "H100", nodes: 4, gpusPerNode: 8 }],
  tree: { name: "lab", children: [{ name: "a" }] },
  settings: { lookback: "7d", maxMinRuntime: "8h" },
  jobs: [
    { id: "wide", budget: "a", cluster: "c1", submit: 0, gpus: 32, work: "1h", minRuntime: "6h" },
    { id: "small", budget: "a", cluster: "c1", submit: 0, gpus: 1, work: "1h", minRuntime: "10m" },
  ],
};

describe("simulation options", () => {
  it("leaves the file as it is without options (and never mutates it)", () => {
    const copy = structuredClone(FILE);
    expect(applySimulationOptions(FILE, {})).toEqual(FILE);
    applySimulationOptions(FILE, { clusterGpus: 8, maxMinRuntime: "1h", lookback: "1d" });
    expect(FILE).toEqual(copy);
  });

  it("has options for the file only with a lookback, a maximum minimum runtime or a size", () => {
    expect(hasFileOptions({})).toBe(false);
    expect(hasFileOptions({ days: 3, seed: 2, lookback: "", clusterGpus: 0 })).toBe(false);
    expect(applySimulationOptions(FILE, { days: 3, seed: 2 })).toEqual(FILE);
    expect(hasFileOptions({ lookback: "3d" })).toBe(true);
    expect(hasFileOptions({ maxMinRuntime: "2h" })).toBe(true);
    expect(hasFileOptions({ clusterGpus: 16 })).toBe(true);
  });

  it("sets the lookback and caps minimum runtimes at the new maximum", () => {
    const file = applySimulationOptions(FILE, { lookback: "3d", maxMinRuntime: "2h" });
    expect(file.settings).toEqual({ lookback: "3d", maxMinRuntime: "2h" });
    expect(file.jobs.map((job) => job.minRuntime)).toEqual([7200, "10m"]);
    const parsed = parseScenario(file);
    expect(parsed.ok && [parsed.value.lookbackSec, parsed.value.maxMinRuntimeSec]).toEqual([
      259_200, 7200,
    ]);
  });

  it("resizes clusters to whole nodes and narrows wider jobs (edge: size not a node multiple)", () => {
    const file = applySimulationOptions(FILE, { clusterGpus: 12 });
    expect(file.clusters[0]?.nodes).toBe(2);
    expect(file.jobs.map((job) => job.gpus)).toEqual([16, 1]);
    expect(parseScenario(file).ok).toBe(true);
  });

  it("describes options for lists", () => {
    expect(describeOptions({})).toBe("defaults");
    expect(describeOptions({ days: 1 })).toBe("1 day");
    expect(describeOptions({ lookback: "3d", clusterGpus: 1024, days: 7, seed: 0 })).toBe(
      "lookback 3d · 1,024 GPUs · 7 days · seed 0",
    );
  });
});
