import { describe, expect, it } from "vitest";
import { parseScenario } from "../sim";
import { buildTreeScenario, type TreeScenarioNode } from "./tree-scenario";

const NODES: TreeScenarioNode[] = [
  { id: "r", parentId: null, name: "lab", weight: 1, path: "", isLeaf: false, effectiveShare: 1 },
  {
    id: "p",
    parentId: "r",
    name: "llm",
    weight: 3,
    path: "llm",
    isLeaf: false,
    effectiveShare: 0.75,
  },
  {
    id: "a",
    parentId: "p",
    name: "pre",
    weight: 1,
    path: "llm/pre",
    isLeaf: true,
    effectiveShare: 0.75,
  },
  {
    id: "v",
    parentId: "r",
    name: "vision",
    weight: 1,
    path: "vision",
    isLeaf: true,
    effectiveShare: 0.25,
  },
  {
    id: "z",
    parentId: "r",
    name: "idle",
    weight: 0,
    path: "idle",
    isLeaf: true,
    effectiveShare: 0,
  },
];
const CLUSTERS = [{ name: "h100", gpuType: "H100", nodes: 4, gpus: 32 }];

describe("workload on the stored tree", () => {
  it("is a valid scenario with the tree nested by name and every job on a leaf with a share", () => {
    const file = buildTreeScenario(NODES, CLUSTERS, { days: 2, seed: 3 });
    const parsed = parseScenario(file);
    expect(parsed.ok).toBe(true);
    expect(file.tree).toEqual({
      name: "lab",
      weight: 1,
      children: [
        { name: "llm", weight: 3, children: [{ name: "pre", weight: 1 }] },
        { name: "vision", weight: 1 },
        { name: "idle", weight: 0 },
      ],
    });
    expect(new Set(file.jobs.map((job) => job.budget))).toEqual(new Set(["llm/pre", "vision"]));
    expect(file.clusters).toEqual([{ name: "h100", gpuType: "H100", nodes: 4, gpusPerNode: 8 }]);
    expect(file.horizon).toBe("2d");
  });

  it("offers about twice the capacity in training work, and the same seed gives the same file", () => {
    const file = buildTreeScenario(NODES, CLUSTERS, { days: 2, seed: 3 });
    const trainingGpuSec = file.jobs
      .filter((job) => job.minRuntime !== undefined && !String(job.minRuntime).endsWith("m"))
      .reduce((sum, job) => sum + job.gpus * Number(job.work), 0);
    expect(trainingGpuSec / (32 * 2 * 86_400)).toBeGreaterThanOrEqual(2);
    expect(buildTreeScenario(NODES, CLUSTERS, { days: 2, seed: 3 })).toEqual(file);
  });

  it("sends no jobs when no leaf has a share (edge: all weights zero)", () => {
    const flat = NODES.map((node) => ({ ...node, effectiveShare: 0 }));
    expect(buildTreeScenario(flat, CLUSTERS, { days: 1, seed: 1 }).jobs).toEqual([]);
  });
});
