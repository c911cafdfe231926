import { describe, expect, it } from "vitest";
import { parseScenario } from "./scenario";
import type { ScenarioIssue } from "./scenario-issues";
import { ROOT_ID } from "./scenario-tree";

const base = {
  clusters: [{ name: "h100", gpuType: "H100", nodes: 2, gpusPerNode: 8 }],
  tree: {
    name: "lab",
    children: [{ name: "llm", weight: 2, children: [{ name: "pretrain" }] }, { name: "vision" }],
  },
  jobs: [
    {
      id: "j1",
      budget: "llm/pretrain",
      cluster: "h100",
      submit: "2h",
      gpus: 16,
      work: "10h",
      minRuntime: "1h",
    },
  ],
};

function issuesOf(input: unknown): string[] {
  const result = parseScenario(input);
  if (result.ok) throw new Error("expected problems");
  return result.issues.map((issue: ScenarioIssue) => `${issue.path}: ${issue.message}`);
}

describe("parseScenario", () => {
  it("normalises durations, paths and defaults", () => {
    const result = parseScenario(base);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const { value } = result;
    expect(value.tree).toEqual([
      { id: ROOT_ID, parentId: null, name: "lab", weight: 1 },
      { id: "llm", parentId: ROOT_ID, name: "llm", weight: 2 },
      { id: "llm/pretrain", parentId: "llm", name: "pretrain", weight: 1 },
      { id: "vision", parentId: ROOT_ID, name: "vision", weight: 1 },
    ]);
    expect(value.jobs[0]).toEqual({
      id: "j1",
      budgetId: "llm/pretrain",
      cluster: "h100",
      userId: "anonymous",
      submitSec: 7200,
      gpus: 16,
      workSec: 36_000,
      minRuntimeSec: 3600,
      isResumable: true,
      priority: "normal",
      jobClass: "training",
      baselinePriority: "normal",
      isBaselinePreemptible: true,
    });
    expect(value.lookbackSec).toBe(604_800);
    expect(value.maxMinRuntimeSec).toBe(28_800);
    expect(value.horizonSec).toBeNull();
  });

  it("tags small short jobs debug and keeps an explicit class", () => {
    const result = parseScenario({
      ...base,
      jobs: [
        {
          id: "d",
          budget: "vision",
          cluster: "h100",
          submit: 0,
          gpus: 8,
          work: "5m",
          minRuntime: "15m",
        },
        {
          id: "t",
          budget: "vision",
          cluster: "h100",
          submit: 0,
          gpus: 9,
          work: "5m",
          minRuntime: "15m",
        },
        {
          id: "i",
          budget: "vision",
          cluster: "h100",
          submit: 0,
          gpus: 1,
          work: "1h",
          minRuntime: "16m",
        },
        {
          id: "x",
          budget: "vision",
          cluster: "h100",
          submit: 0,
          gpus: 1,
          work: "1h",
          class: "interactive",
        },
      ],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.value.jobs.map((job) => job.jobClass)).toEqual([
      "debug",
      "training",
      "training",
      "interactive",
    ]);
  });

  it("lists every problem with its JSON path", () => {
    const bad = {
      ...base,
      clusters: [...base.clusters, { name: "h100", gpuType: "H100", nodes: 0 }],
      jobs: [
        ...base.jobs,
        { id: "j1", budget: "llm", cluster: "h100", submit: 0, gpus: 1, work: "1h" },
        {
          id: "j3",
          budget: "nope/x",
          cluster: "b200",
          submit: "soon",
          gpus: 17,
          work: "1h",
          minRuntime: "9h",
        },
        {
          id: "j4",
          budget: "vision",
          cluster: "h100",
          submit: 0,
          gpus: 2.5,
          work: "1h",
          colour: "red",
        },
        {
          id: "j5",
          budget: "vision",
          cluster: "h100",
          submit: 0,
          gpus: 17,
          work: 0,
          minRuntime: "9h",
        },
      ],
      nodeEvents: [{ at: "1h", cluster: "h100", node: 2, state: "draining" }],
      baseline: { nonPreemptibleGpuCap: { pretrain: 8 } },
    };
    expect(issuesOf(bad)).toEqual([
      'baseline.nonPreemptibleGpuCap.pretrain: "pretrain" is not a top-level node of the tree',
      "clusters[1].nodes: Too small: expected number to be >0",
      'jobs[1].budget: "llm" is not a leaf: jobs are charged to leaves only',
      'jobs[1].id: duplicate job id "j1"',
      'jobs[2].budget: no budget "nope/x" in the tree',
      'jobs[2].cluster: no cluster "b200"',
      "jobs[2].minRuntime: 9h is above the cluster maximum 8h",
      'jobs[2].submit: "soon" is not a duration (seconds, or "90s", "15m", "8h", "7d", "1h30m", "1:30:00")',
      'jobs[3]: Unrecognized key: "colour"',
      "jobs[3].gpus: Invalid input: expected int, received number",
      "jobs[4].gpus: 17 is above the cluster total 16",
      "jobs[4].minRuntime: 9h is above the cluster maximum 8h",
      "jobs[4].work: must be above 0",
      'nodeEvents[0].node: node 2 does not exist (cluster "h100" has nodes 0-1)',
    ]);
  });

  it("reports every problem of a job at once, not only its type errors", () => {
    const job = { gpus: "x", budget: "nope", cluster: "y", submit: "abc" };
    const nodeEvents = [{ at: "later", cluster: "b200", node: -1, state: "draining" }];
    expect(issuesOf({ ...base, jobs: [job], nodeEvents })).toEqual([
      'jobs[0].budget: no budget "nope" in the tree',
      'jobs[0].cluster: no cluster "y"',
      "jobs[0].gpus: Invalid input: expected number, received string",
      "jobs[0].id: required, but missing",
      'jobs[0].submit: "abc" is not a duration (seconds, or "90s", "15m", "8h", "7d", "1h30m", "1:30:00")',
      "jobs[0].work: required, but missing",
      'nodeEvents[0].at: "later" is not a duration (seconds, or "90s", "15m", "8h", "7d", "1h30m", "1:30:00")',
      'nodeEvents[0].cluster: no cluster "b200"',
      "nodeEvents[0].node: Too small: expected number to be >=0",
    ]);
  });

  it("checks a bad job's good fields against the file: duplicate id, cluster total", () => {
    const job = base.jobs[0]!;
    const jobs = [job, { ...job, gpus: 17, work: true }];
    expect(issuesOf({ ...base, jobs })).toEqual([
      "jobs[1].gpus: 17 is above the cluster total 16",
      'jobs[1].id: duplicate job id "j1"',
      "jobs[1].work: Invalid input",
    ]);
  });

  it("reports a bad cluster once, not again for every job on it", () => {
    const job = base.jobs[0]!;
    const bad = {
      ...base,
      clusters: [{ name: "h100", gpuType: "H100", nodes: 2, gpusPerNode: 0 }],
      jobs: [job, { ...job, id: "j2" }, { ...job, id: "j3", cluster: "b200" }],
    };
    expect(issuesOf(bad)).toEqual([
      "clusters[0].gpusPerNode: Too small: expected number to be >0",
      'jobs[2].cluster: no cluster "b200"',
    ]);
  });

  it("refuses a zero horizon, which would simulate nothing, once", () => {
    expect(issuesOf({ ...base, horizon: "0s" })).toEqual([
      "horizon: must be above 0 (leave it out to run every job)",
    ]);
    expect(issuesOf({ ...base, horizon: "soon" })).toEqual([
      'horizon: "soon" is not a duration (seconds, or "90s", "15m", "8h", "7d", "1h30m", "1:30:00")',
    ]);
  });

  it("refuses durations over five years, which would exhaust memory before any answer", () => {
    const job = base.jobs[0]!;
    const long = {
      ...base,
      horizon: "1831d",
      jobs: [
        { ...job, work: "99999999d" },
        { ...job, id: "j2", work: 1e300 },
        { ...job, id: "j3", work: "1830d" },
      ],
    };
    expect(issuesOf(long)).toEqual([
      `horizon: "1831d" is longer than the simulator's limit of 1830d (five years)`,
      `jobs[0].work: "99999999d" is longer than the simulator's limit of 1830d (five years)`,
      "jobs[1].work: 1e+300 is longer than the simulator's limit of 1830d (five years)",
    ]);
  });

  it("refuses a tree nested too deep and clusters too large, instead of failing later", () => {
    const chainOf = (levels: number): object => {
      let node: object = { name: "l" };
      for (let level = 1; level < levels; level++) node = { name: `n${level}`, children: [node] };
      return node;
    };
    // A thousand levels overflowed zod's recursive parse (a 500 on upload).
    expect(issuesOf({ ...base, tree: chainOf(1_000) })).toContain(
      "tree: nests deeper than 32 levels",
    );
    expect(issuesOf({ ...base, tree: chainOf(33) })).toContain("tree: nests deeper than 32 levels");
    const deepest = chainOf(32) as { name: string };
    expect(issuesOf({ ...base, tree: deepest })).not.toContain("tree: nests deeper than 32 levels");

    const huge = { name: "h100", gpuType: "H100", nodes: 2 ** 53 - 1, gpusPerNode: 2 ** 53 - 1 };
    expect(issuesOf({ ...base, clusters: [huge] })).toEqual([
      "clusters[0].gpusPerNode: must be at most 64",
      "clusters[0].nodes: must be at most 10,000",
    ]);
    const largest = { name: "h100", gpuType: "H100", nodes: 10_000, gpusPerNode: 64 };
    expect(parseScenario({ ...base, clusters: [largest] }).ok).toBe(true);
    // Many clusters, each within bounds, are bounded together.
    const two = [largest, { ...largest, name: "h200" }];
    expect(issuesOf({ ...base, clusters: two })).toContain(
      "clusters: hold 1,280,000 GPUs in all; at most 1,000,000",
    );
  });

  it("reports duplicate sibling names and slashes in names", () => {
    const tree = { name: "lab", children: [{ name: "a" }, { name: "a" }, { name: "b/c" }] };
    expect(issuesOf({ ...base, tree, jobs: [] })).toEqual([
      'tree.children[1].name: duplicate sibling name "a"',
      "tree.children[2].name: must not contain '/'",
    ]);
  });

  it("names a missing top-level field, of a type or of any", () => {
    expect(issuesOf({ clusters: base.clusters, tree: base.tree })).toEqual([
      "jobs: required, but missing",
    ]);
    expect(issuesOf({ clusters: base.clusters, jobs: [] })).toEqual([
      "tree: required, but missing",
    ]);
  });

  it("lists the elements' problems too when the top level is wrong", () => {
    const { gpus: _gpus, ...withoutGpus } = base.jobs[0]!;
    const clusters = [{ ...base.clusters[0], nodes: 0 }];
    const tree = { name: "lab", children: [{ name: "a", weight: -1 }] };
    expect(issuesOf({ clusters, tree, jobs: [withoutGpus], extra: 1 })).toEqual([
      '(file): Unrecognized key: "extra"',
      "clusters[0].nodes: Too small: expected number to be >0",
      "jobs[0].gpus: required, but missing",
      "tree.children[0].weight: Too small: expected number to be >=0",
    ]);
    expect(issuesOf({ jobs: [withoutGpus] })).toEqual([
      "clusters: required, but missing",
      "jobs[0].gpus: required, but missing",
      "tree: required, but missing",
    ]);
  });

  it("names missing fields of every kind and keeps zod's words for a wrong type", () => {
    const { gpus: _gpus, ...withoutGpus } = base.jobs[0]!;
    const { submit: _submit, ...withoutSubmit } = base.jobs[0]!;
    const jobs = [withoutGpus, { ...base.jobs[0], gpus: "two" }, withoutSubmit];
    const nodeEvents = [{ at: "1h", cluster: "h100", node: 0 }];
    expect(issuesOf({ ...base, jobs, nodeEvents })).toEqual([
      "jobs[0].gpus: required, but missing",
      "jobs[1].gpus: Invalid input: expected number, received string",
      'jobs[1].id: duplicate job id "j1"',
      'jobs[2].id: duplicate job id "j1"',
      "jobs[2].submit: required, but missing",
      "nodeEvents[0].state: required, but missing",
    ]);
  });
});
