import { describe, expect, it } from "vitest";
import { buildLabOrg, DEMO_ORG_SEED, type OrgNode } from "./lab-org";
import { parseScenario } from "../sim/scenario";
import { generateLabScenario, LAB_CLUSTERS, LAB_WHOLE_NODE_PROFILE } from "./lab-workload";

describe("generateLabScenario", () => {
  const file = generateLabScenario({ days: 2, seed: 42 });
  const parsed = parseScenario(file);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues.slice(0, 3)));
  const scenario = parsed.value;

  it("is a valid scenario of the lab's clusters and the seeded demo organisation", () => {
    expect(scenario.clusters).toEqual(LAB_CLUSTERS);
    const programs = scenario.tree.filter((node) => node.parentId === "/").map((node) => node.name);
    expect(programs).toEqual(["language", "vision", "robotics", "science"]);
    const projects = scenario.tree.filter((node) => programs.includes(node.parentId ?? ""));
    expect(projects).toHaveLength(15);
    // Every job charges a leaf of the demo tree and is submitted by one of its members.
    const membersByPath = new Map<string, string[]>();
    const walk = (node: OrgNode, path: string) => {
      if (node.children.length === 0) membersByPath.set(path, node.members);
      for (const child of node.children) walk(child, path ? `${path}/${child.name}` : child.name);
    };
    walk(buildLabOrg(DEMO_ORG_SEED).root, "");
    for (const job of file.jobs) expect(membersByPath.get(job.budget)).toContain(job.user);
    const users = new Set(scenario.jobs.map((job) => job.userId));
    expect(users.size).toBeGreaterThan(100);
    expect(users.size).toBeLessThan(200);
  });

  it("starts with a backlog, offers more work than capacity and mixes the classes", () => {
    for (const cluster of LAB_CLUSTERS) {
      const gpus = cluster.nodes * cluster.gpusPerNode;
      const jobs = scenario.jobs.filter((job) => job.cluster === cluster.name);
      const firstHourGpus = jobs
        .filter((job) => job.submitSec < 3600)
        .reduce((sum, job) => sum + job.gpus, 0);
      expect(firstHourGpus / gpus).toBeGreaterThan(1.5);
      const workGpuSec = jobs.reduce((sum, job) => sum + job.gpus * job.workSec, 0);
      expect(workGpuSec / (gpus * 2 * 86_400)).toBeGreaterThan(1.5);
    }
    const classes = new Set(scenario.jobs.map((job) => job.jobClass));
    expect([...classes].sort()).toEqual(["debug", "interactive", "opportunistic", "training"]);
    const debug = scenario.jobs.filter((job) => job.jobClass === "debug");
    expect(debug.every((job) => job.gpus <= 8 && job.minRuntimeSec <= 900)).toBe(true);
    const high = scenario.jobs.filter((job) => job.baselinePriority === "high").length;
    expect(high / scenario.jobs.length).toBeGreaterThan(0.5);
  });

  it("plans node drains and failures that end healthy", () => {
    const states = scenario.nodeEvents.map((event) => event.state);
    expect(states).toContain("draining");
    expect(states.filter((state) => state === "healthy")).toHaveLength(states.length / 2);
  });

  it("gives the same scenario for the same seed and another for another seed", () => {
    expect(generateLabScenario({ days: 2, seed: 42 })).toEqual(file);
    expect(generateLabScenario({ days: 2, seed: 43 })).not.toEqual(file);
  });
});

describe("the lab-whole-node profile", () => {
  const file = generateLabScenario({ days: 7, seed: 3, profile: LAB_WHOLE_NODE_PROFILE });
  const parsed = parseScenario(file);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues.slice(0, 3)));
  const jobs = parsed.value.jobs;
  const gpus = 40 * 8;

  it("is one cluster of 40 x 8 with whole-node training of 8-64 GPUs and 2-8 h contracts", () => {
    expect(parsed.value.clusters).toEqual([
      { name: "c40", gpuType: "H100", nodes: 40, gpusPerNode: 8 },
    ]);
    const training = jobs.filter((job) => job.jobClass === "training");
    expect(new Set(training.map((job) => job.gpus))).toEqual(new Set([8, 16, 32, 64]));
    const hours = new Set(training.map((job) => job.minRuntimeSec / 3600));
    expect(Math.min(...hours)).toBe(2);
    expect(Math.max(...hours)).toBe(8);
  });

  it("offers about 2.5x the capacity, spread over projects regardless of weights", () => {
    const offered = jobs
      .filter((job) => job.jobClass === "training" && job.submitSec >= 3600)
      .reduce((sum, job) => sum + job.gpus * job.workSec, 0);
    expect(offered / (gpus * 7 * 86_400)).toBeGreaterThan(2.3);
    // 15 projects alike (1/15 each); by share, lm-pretrain alone would submit about 18%.
    const byProject = new Map<string, number>();
    for (const job of file.jobs.filter((job) => job.class === "training")) {
      const project = job.budget.split("/").slice(0, 2).join("/");
      byProject.set(project, (byProject.get(project) ?? 0) + 1);
    }
    expect(byProject.size).toBe(15);
    const counts = [...byProject.values()];
    const total = counts.reduce((sum, count) => sum + count, 0);
    expect(Math.max(...counts) / total).toBeLessThan(0.12);
  });

  it("has about 60 debug jobs a day of 1-8 GPUs with 15-minute contracts, and few free jobs", () => {
    const debug = jobs.filter((job) => job.jobClass === "debug");
    expect(debug.length / 7).toBeGreaterThan(55);
    expect(debug.length / 7).toBeLessThan(65);
    expect(debug.every((job) => job.gpus <= 8 && job.minRuntimeSec === 900)).toBe(true);
    expect(jobs.filter((job) => job.jobClass === "interactive")).toHaveLength(0);
    const free = jobs.filter((job) => job.minRuntimeSec === 0);
    expect(free.length).toBeGreaterThan(0);
    expect(free.length / jobs.length).toBeLessThan(0.05);
  });
});
