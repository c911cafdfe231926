import { describe, expect, it } from "vitest";
import {
  checkChargeableBudget,
  findBudgetByPath,
  validateBudgetTree,
  weeklyGpuHours,
} from "./budget-tree";
import { buildTree, flattenTree } from "./test-helpers";
import type { BudgetNode } from "./types";

function codes(nodes: BudgetNode[]): string[] {
  const result = validateBudgetTree(nodes);
  return result.ok ? [] : result.issues.map((issue) => issue.code);
}

describe("validateBudgetTree", () => {
  it("computes fractions, effective shares, paths and depths in preorder", () => {
    const tree = buildTree({
      name: "lab",
      children: [
        {
          name: "llm",
          weight: 40,
          children: [
            { name: "pretrain", weight: 3 },
            { name: "rl", weight: 1 },
          ],
        },
        { name: "vision", weight: 60 },
      ],
    });
    expect(
      tree.nodes.map((node) => [
        node.path,
        node.depth,
        node.fraction,
        node.effectiveShare,
        node.isLeaf,
      ]),
    ).toEqual([
      ["", 0, 1, 1, false],
      ["llm", 1, 0.4, 0.4, false],
      ["llm/pretrain", 2, 0.75, 0.30000000000000004, true],
      ["llm/rl", 2, 0.25, 0.1, true],
      ["vision", 1, 0.6, 0.6, true],
    ]);
    expect(tree.leafCount).toBe(3);
    expect(tree.rootId).toBe("root");
  });

  it("zero weights: a zero-weight child has fraction 0; all-zero siblings all have fraction 0", () => {
    const tree = buildTree({
      name: "lab",
      children: [
        { name: "a", weight: 0 },
        {
          name: "b",
          weight: 2,
          children: [
            { name: "b1", weight: 0 },
            { name: "b2", weight: 0 },
          ],
        },
      ],
    });
    expect(tree.nodes.map((node) => [node.path, node.fraction, node.effectiveShare])).toEqual([
      ["", 1, 1],
      ["a", 0, 0],
      ["b", 1, 1],
      ["b/b1", 0, 0],
      ["b/b2", 0, 0],
    ]);
  });

  it("refuses duplicate sibling names but allows the same name under different parents", () => {
    expect(
      codes([
        { id: "r", parentId: null, name: "lab", weight: 1 },
        { id: "a", parentId: "r", name: "x", weight: 1 },
        { id: "b", parentId: "r", name: "x", weight: 1 },
      ]),
    ).toEqual(["duplicate-sibling-name"]);
    expect(
      codes(flattenTree({ name: "lab", children: [{ name: "a", children: [{ name: "a" }] }] })),
    ).toEqual([]);
  });

  it("refuses negative, NaN and infinite weights", () => {
    expect(
      codes([
        { id: "r", parentId: null, name: "lab", weight: 1 },
        { id: "a", parentId: "r", name: "a", weight: -1 },
        { id: "b", parentId: "r", name: "b", weight: Number.NaN },
        { id: "c", parentId: "r", name: "c", weight: Number.POSITIVE_INFINITY },
      ]),
    ).toEqual(["invalid-weight", "invalid-weight", "invalid-weight"]);
  });

  it("needs exactly one root", () => {
    expect(codes([{ id: "a", parentId: "b", name: "a", weight: 1 }])).toEqual(["no-root"]);
    expect(
      codes([
        { id: "a", parentId: null, name: "a", weight: 1 },
        { id: "b", parentId: null, name: "b", weight: 1 },
      ]),
    ).toEqual(["multiple-roots"]);
  });

  it("refuses unknown parents, duplicate ids, bad names and cycles", () => {
    expect(
      codes([
        { id: "r", parentId: null, name: "lab", weight: 1 },
        { id: "a", parentId: "zz", name: "a", weight: 1 },
      ]),
    ).toEqual(["unknown-parent"]);
    expect(
      codes([
        { id: "r", parentId: null, name: "lab", weight: 1 },
        { id: "r", parentId: "r", name: "a", weight: 1 },
      ]),
    ).toEqual(["duplicate-id"]);
    expect(
      codes([
        { id: "r", parentId: null, name: "lab", weight: 1 },
        { id: "a", parentId: "r", name: "a/b", weight: 1 },
        { id: "b", parentId: "r", name: "", weight: 1 },
      ]),
    ).toEqual(["invalid-name", "invalid-name"]);
    expect(
      codes([
        { id: "r", parentId: null, name: "lab", weight: 1 },
        { id: "a", parentId: "b", name: "a", weight: 1 },
        { id: "b", parentId: "a", name: "b", weight: 1 },
      ]),
    ).toEqual(["unreachable", "unreachable"]);
  });

  it("does not mutate its input", () => {
    const input = flattenTree({ name: "lab", children: [{ name: "a" }] });
    const copy = structuredClone(input);
    validateBudgetTree(input);
    expect(input).toEqual(copy);
  });
});

describe("budget lookups", () => {
  const tree = buildTree({
    name: "lab",
    children: [{ name: "llm", children: [{ name: "pretrain" }] }],
  });

  it("charges only leaves: an inner node is refused with a clear error", () => {
    expect(checkChargeableBudget(tree, "llm")).toEqual({
      ok: false,
      issues: [
        {
          code: "inner-budget",
          message: '"llm" has sub-budgets; only leaves can be charged.',
          id: "llm",
        },
      ],
    });
    expect(checkChargeableBudget(tree, "nope").ok).toBe(false);
    expect(checkChargeableBudget(tree, "llm/pretrain").ok).toBe(true);
  });

  it("finds budgets by path and converts shares to GPU-hours per week", () => {
    expect(findBudgetByPath(tree, "llm/pretrain")?.id).toBe("llm/pretrain");
    expect(findBudgetByPath(tree, "")?.id).toBe("root");
    expect(weeklyGpuHours(0.35, 146)).toBe(8584.8);
  });
});
