import { describe, expect, it } from "vitest";
import {
  expandTree,
  countOwnMatches,
  matchSearch,
  previewSplit,
  rebaseDraft,
  toShareRow,
  visibleRows,
  type NodeRow,
} from "./tree-model";

function row(
  id: string,
  parentId: string | null,
  weight: number,
  extra: Partial<NodeRow> = {},
): NodeRow {
  return {
    id,
    parentId,
    name: id,
    path: id,
    depth: parentId === null ? 0 : 1,
    isLeaf: true,
    weight,
    fraction: 0,
    effectiveShare: 0,
    version: 1,
    leads: [],
    members: [],
    canEdit: false,
    canManageLeads: false,
    ...extra,
  };
}

const ROWS: NodeRow[] = [
  row("lab", null, 1, { isLeaf: false, path: "", effectiveShare: 1 }),
  row("a", "lab", 3, {
    effectiveShare: 0.75,
    members: [{ id: "u", name: "Riley Chen", email: "riley@x" }],
  }),
  row("b", "lab", 1, { effectiveShare: 0.25 }),
];

describe("previewSplit", () => {
  it("gives every child its new share and the old one beside it; new children have none", () => {
    const preview = previewSplit(ROWS, "lab", [
      { key: "a", id: "a", name: "a", weightText: "1" },
      { key: "b", id: "b", name: "b", weightText: "1" },
      { key: "n", name: "c", weightText: "2" },
    ]);
    expect(preview).toEqual({
      ok: true,
      rows: [
        expect.objectContaining({ id: "a", fraction: 0.25, effectiveShare: 0.25, oldShare: 0.75 }),
        expect.objectContaining({ id: "b", fraction: 0.25, oldShare: 0.25 }),
        expect.objectContaining({ name: "c", fraction: 0.5, oldShare: null }),
      ],
    });
  });

  it("reports a duplicate name instead of a preview", () => {
    const preview = previewSplit(ROWS, "lab", [
      { key: "a", id: "a", name: "b", weightText: "1" },
      { key: "b", id: "b", name: "b", weightText: "1" },
    ]);
    expect(preview.ok).toBe(false);
  });
});

describe("matchSearch and visibleRows", () => {
  it("finds budgets by person and keeps their ancestors; no query shows open branches only", () => {
    const matches = matchSearch(ROWS, "riley");
    expect([...matches!]).toEqual(["a", "lab"]);
    expect(visibleRows(ROWS, new Set(), matches).map((r) => r.id)).toEqual(["lab", "a"]);
    expect(matchSearch(ROWS, "  ")).toBeNull();
    // Counted: the leaf whose member matches, not the lab shown above it.
    expect(countOwnMatches(ROWS, "riley")).toBe(1);
    expect(countOwnMatches(ROWS, "  ")).toBe(0);
    // The root is shown above every match, never counted as one by its name.
    expect(countOwnMatches(ROWS, "lab")).toBe(0);
    expect(matchSearch(ROWS, "lab")!.size).toBe(0);
    expect(visibleRows(ROWS, new Set(), null).map((r) => r.id)).toEqual(["lab"]);
    expect(visibleRows(ROWS, new Set(["lab"]), null).map((r) => r.id)).toEqual(["lab", "a", "b"]);
  });
});

describe("rebaseDraft", () => {
  const base = {
    children: [
      { id: "a", name: "a", weight: 1 },
      { id: "b", name: "b", weight: 1 },
      { id: "c", name: "c", weight: 1 },
    ],
  };
  // Someone else meanwhile: a -> 5, removed c, added d.
  const current = {
    children: [
      { id: "a", name: "a", weight: 5 },
      { id: "b", name: "b", weight: 1 },
      { id: "d", name: "d", weight: 2 },
    ],
  };

  it("applies only the viewer's changes on top of the saved split", () => {
    const draft = [
      { key: "a", id: "a", name: "a", weightText: "1" }, // untouched: takes their 5
      { key: "b", id: "b", name: "beta", weightText: "4" }, // renamed and reweighted
      { key: "c", id: "c", name: "c", weightText: "1" }, // they removed it: stays removed
      { key: "n", name: "new", weightText: "1" },
    ];
    expect(rebaseDraft(base, current, draft)).toEqual([
      { key: "a", id: "a", name: "a", weightText: "5" },
      { key: "b", id: "b", name: "beta", weightText: "4" },
      { key: "d", id: "d", name: "d", weightText: "2" },
      { key: "n", name: "new", weightText: "1" },
    ]);
  });

  it("keeps the viewer's removals", () => {
    const draft = [{ key: "b", id: "b", name: "b", weightText: "1" }];
    expect(rebaseDraft(base, current, draft).map((child) => child.id)).toEqual(["b", "d"]);
  });
});

describe("expandTree", () => {
  it("rebuilds paths and people from the compact form", () => {
    const riley = { id: "u", name: "Riley Chen", email: "riley@x" };
    const base = { depth: 1, isLeaf: true, weight: 1, fraction: 1, effectiveShare: 1, version: 1 };
    const rows = expandTree({
      people: [riley],
      rows: [
        {
          ...base,
          id: "r",
          parentId: null,
          name: "lab",
          depth: 0,
          isLeaf: false,
          leads: [0],
          members: [],
          canEdit: true,
          canManageLeads: true,
        },
        {
          ...base,
          id: "a",
          parentId: "r",
          name: "a",
          isLeaf: false,
          leads: [],
          members: [],
          canEdit: true,
          canManageLeads: true,
        },
        {
          ...base,
          id: "b",
          parentId: "a",
          name: "riley.chen",
          depth: 2,
          leads: [],
          members: [0],
          canEdit: false,
          canManageLeads: false,
        },
      ],
    });
    expect(rows.map((row) => row.path)).toEqual(["", "a", "a/riley.chen"]);
    expect(rows[0]!.leads).toEqual([riley]);
    expect(rows[2]!.members).toEqual([riley]);
  });
});

describe("toShareRow", () => {
  it("keeps the eight fields the tree tables show and drops the rest (paths, people, rights)", () => {
    const node = row("nlp", "lab", 2, { fraction: 0.4, effectiveShare: 0.4, canEdit: true });
    expect(toShareRow(node)).toEqual({
      id: "nlp",
      parentId: "lab",
      name: "nlp",
      depth: 1,
      isLeaf: true,
      weight: 2,
      fraction: 0.4,
      effectiveShare: 0.4,
    });
  });
});
