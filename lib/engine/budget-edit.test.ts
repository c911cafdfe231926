import { describe, expect, it } from "vitest";
import { applyChildrenEdit } from "./budget-edit";
import type { BudgetNode } from "./types";

// lab -> lang (3) -> { a (1) -> { a1, a2 }, b (1) } ; lab -> vis (1)
const NODES: BudgetNode[] = [
  { id: "lab", parentId: null, name: "lab", weight: 1 },
  { id: "a1", parentId: "a", name: "a1", weight: 1 },
  { id: "lang", parentId: "lab", name: "lang", weight: 3 },
  { id: "a", parentId: "lang", name: "a", weight: 1 },
  { id: "b", parentId: "lang", name: "b", weight: 1 },
  { id: "a2", parentId: "a", name: "a2", weight: 3 },
  { id: "vis", parentId: "lab", name: "vis", weight: 1 },
];

describe("applyChildrenEdit", () => {
  it("reweights and renames kept children and recomputes shares below them", () => {
    const result = applyChildrenEdit(NODES, "lang", [
      { id: "a", name: "alpha", weight: 3 },
      { id: "b", name: "b", weight: 1 },
    ]);
    if (!result.ok) throw new Error(result.issues[0]?.message);
    const byId = new Map(result.value.tree.nodes.map((node) => [node.id, node]));
    expect(byId.get("a")).toMatchObject({ name: "alpha", fraction: 0.75, effectiveShare: 0.5625 });
    expect(byId.get("a2")?.effectiveShare).toBeCloseTo(0.5625 * 0.75, 12);
    expect(result.value.removedIds).toEqual([]);
    expect(NODES[3]).toEqual({ id: "a", parentId: "lang", name: "a", weight: 1 });
  });

  it("removes a left-out child with its whole subtree, parents listed after children", () => {
    const result = applyChildrenEdit(NODES, "lang", [{ id: "b", name: "b", weight: 1 }]);
    if (!result.ok) throw new Error(result.issues[0]?.message);
    expect(result.value.removedIds.sort()).toEqual(["a", "a1", "a2"]);
    expect(result.value.tree.nodes.map((node) => node.id)).toEqual(["lab", "lang", "b", "vis"]);
  });

  it("adds children without an id under the given prefix", () => {
    const result = applyChildrenEdit(
      NODES,
      "vis",
      [
        { name: "x", weight: 1 },
        { name: "y", weight: 0 },
      ],
      { newIdPrefix: "tmp-" },
    );
    if (!result.ok) throw new Error(result.issues[0]?.message);
    expect(result.value.addedIds).toEqual(["tmp-0", "tmp-1"]);
    expect(result.value.tree.nodes.find((node) => node.id === "tmp-0")?.effectiveShare).toBe(0.25);
  });

  it("says a child is gone 'any more' only when it was a child of the parent before", () => {
    const edit = [
      { id: "vis", name: "vis", weight: 1 },
      { id: "never", name: "never", weight: 1 },
      { id: "gone", name: "gone", weight: 1 },
    ];
    const result = applyChildrenEdit(NODES, "lang", edit, { formerChildIds: new Set(["gone"]) });
    expect(result.ok ? [] : result.issues.map((issue) => issue.message)).toEqual([
      'Child 1 ("vis") is not a child of this budget.',
      'Child 2 ("never") is not a child of this budget.',
      'Child 3 ("gone") is not a child of this budget any more: it was removed.',
    ]);
  });

  it("refuses an id that is not a child of the parent, and duplicate sibling names", () => {
    const foreign = applyChildrenEdit(NODES, "lang", [{ id: "vis", name: "vis", weight: 1 }]);
    expect(foreign.ok ? [] : foreign.issues.map((issue) => issue.code)).toEqual(["unknown-child"]);
    const twice = applyChildrenEdit(NODES, "lang", [
      { id: "a", name: "same", weight: 1 },
      { name: "same", weight: 1 },
    ]);
    expect(twice.ok ? [] : twice.issues.map((issue) => issue.code)).toEqual([
      "duplicate-sibling-name",
    ]);
  });
});
