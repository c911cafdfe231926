import { describe, expect, it } from "vitest";
import { buildTree } from "../engine/test-helpers";
import { budgetFilterIds, jobScope, subtreeIds } from "./job-scope";

const TREE = buildTree({
  name: "root",
  children: [
    {
      name: "language",
      children: [{ name: "pretrain" }, { name: "posttrain", children: [{ name: "riley" }] }],
    },
    { name: "vision", children: [{ name: "rl" }] },
  ],
});

describe("job scope", () => {
  it("subtreeIds: the node and everything below it; unknown ids give none", () => {
    expect(subtreeIds(TREE, "language").sort()).toEqual(
      ["language", "language/posttrain", "language/posttrain/riley", "language/pretrain"].sort(),
    );
    expect(subtreeIds(TREE, "vision/rl")).toEqual(["vision/rl"]);
    expect(subtreeIds(TREE, "nope")).toEqual([]);
  });

  it("admins see all, leads their branch (overlapping leads counted once), others their own", () => {
    expect(jobScope(TREE, { id: "a", isAdmin: true }, [])).toEqual({ kind: "all" });
    const lead = jobScope(TREE, { id: "p", isAdmin: false }, ["language/posttrain", "language"]);
    expect(lead.kind).toBe("branch");
    expect(lead.kind === "branch" ? lead.budgetIds.length : 0).toBe(4);
    expect(jobScope(TREE, { id: "r", isAdmin: false }, [])).toEqual({ kind: "own", userId: "r" });
  });

  it("budget filter by path: a branch stands for its leaves, slashes trimmed, unknown is null", () => {
    expect(budgetFilterIds(TREE, "vision/")?.sort()).toEqual(["vision", "vision/rl"]);
    expect(budgetFilterIds(TREE, "language/posttrain/riley")).toEqual(["language/posttrain/riley"]);
    expect(budgetFilterIds(TREE, "language/nope")).toBeNull();
  });
});
