import { describe, expect, it } from "vitest";
import { formatHostList, formatNodeList, formatNodes } from "./node-list";

describe("formatNodeList", () => {
  it("writes node lists as ranges, sorted, with the caller's separator", () => {
    expect(formatNodeList([9, 3, 4, 5])).toBe("3-5, 9");
    expect(formatNodeList([7, 0, 1, 2, 5, 9, 10], ",")).toBe("0-2,5,7,9-10");
    expect(formatNodeList([3])).toBe("3");
    expect(formatNodeList([])).toBe("");
  });
});

describe("formatNodes", () => {
  it("puts the noun before the ranges", () => {
    expect(formatNodes([5, 3, 4, 9])).toBe("nodes 3-5, 9");
    expect(formatNodes([2])).toBe("node 2");
  });
});

describe("formatHostList", () => {
  it("writes names as SLURM's squeue does: shared prefixes bracketed as ranges, sorted", () => {
    expect(formatHostList(["n2", "n1"])).toBe("n[1-2]");
    expect(formatHostList(["n4", "n1", "n2", "n10", "n2"])).toBe("n[1-2,4,10]");
    expect(formatHostList(["n3"])).toBe("n3");
    expect(formatHostList(["gpu08", "gpu09", "gpu10", "n1", "login"])).toBe("gpu[08-10],login,n1");
  });

  it("does not join a padded number to an unpadded one (edge: n09, n10 vs n9)", () => {
    expect(formatHostList(["n9", "n010"])).toBe("n[9,010]");
  });
});

describe("formatNodes with node names", () => {
  const slurmName = (index: number) => ["n1", "n2", "n3", null][index];

  it("writes SLURM's names for a cluster whose nodes have them", () => {
    expect(formatNodes([0, 1], slurmName)).toBe("nodes n[1-2]");
    expect(formatNodes([2], slurmName)).toBe("node n3");
  });

  it("falls back to indexes when a node has no name", () => {
    expect(formatNodes([2, 3], slurmName)).toBe("nodes 2-3");
  });
});
