import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createBudgetRefs, findParting } from "./budget-refs";
import { createFairTreeRanker, rankBudgets } from "./fair-tree";
import { fairShareFactor, levelFairShare } from "./fair-tree-ranking";
import { buildTree, type TreeSpec } from "./test-helpers";

const OPTIONS = { capacityGpus: 8, windowSec: 604800 };

function ranksOf(spec: TreeSpec, usage: Record<string, number>): Record<string, number> {
  return { ...rankBudgets(buildTree(spec), usage, OPTIONS).rankByBudgetId };
}

function lfOf(spec: TreeSpec, usage: Record<string, number>): Record<string, number | null> {
  const ranking = rankBudgets(buildTree(spec), usage, OPTIONS);
  return Object.fromEntries(ranking.rows.map((row) => [row.id, row.levelFairShare]));
}

describe("levelFairShare", () => {
  it("is S / U; S = 0 gives 0 even with no usage; U = 0 gives Infinity", () => {
    expect(levelFairShare(0.5, 0.25)).toBe(2);
    expect(levelFairShare(0, 0)).toBe(0);
    expect(levelFairShare(0, 0.5)).toBe(0);
    expect(levelFairShare(0.5, 0)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("rankBudgets (SLURM fair_tree.html cases)", () => {
  it("LF = S / U: under-served above 1, over-served between 0 and 1", () => {
    const spec = { name: "root", children: [{ name: "a" }, { name: "b" }] };
    expect(lfOf(spec, { a: 100, b: 300 })).toEqual({ root: null, a: 2, b: 0.6666666666666666 });
    expect(ranksOf(spec, { a: 100, b: 300 })).toEqual({ a: 1, b: 2 });
  });

  it("an association with no usage has LF infinity and ranks first", () => {
    const spec = { name: "root", children: [{ name: "a" }, { name: "b" }] };
    expect(lfOf(spec, { b: 50 })).toEqual({ root: null, a: Infinity, b: 0.5 });
    expect(ranksOf(spec, { b: 50 })).toEqual({ a: 1, b: 2 });
  });

  it("UserA vs UserB: the Level FS of their ancestors below the first common ancestor decides", () => {
    // root => Acct1 => Acct12 => UserA; root => Acct1 => Acct16 => UserB; plus an idle Acct2.
    const spec = {
      name: "root",
      children: [
        {
          name: "Acct1",
          children: [
            { name: "Acct12", children: [{ name: "UserA" }] },
            { name: "Acct16", children: [{ name: "UserB" }] },
          ],
        },
        { name: "Acct2", children: [{ name: "UserC" }] },
      ],
    };
    const usage = { "Acct1/Acct12/UserA": 300, "Acct1/Acct16/UserB": 100 };
    const lf = lfOf(spec, usage);
    expect(lf["Acct1/Acct16"]).toBe(2);
    expect(lf["Acct1/Acct12"]).toBe(0.6666666666666666);
    expect(ranksOf(spec, usage)).toEqual({
      "Acct1/Acct12/UserA": 3,
      "Acct1/Acct16/UserB": 2,
      "Acct2/UserC": 1,
    });
  });

  it("the highest ranked user gets fair-share factor 1.0; factor = (N - rank + 1) / N", () => {
    const ranking = rankBudgets(
      buildTree({ name: "root", children: [{ name: "a" }, { name: "b" }, { name: "c" }] }),
      { a: 10, b: 10, c: 40 },
      OPTIONS,
    );
    expect(ranking.rows.map((row) => [row.id, row.rank, row.fairShareFactor])).toEqual([
      ["root", null, null],
      ["a", 1, 1],
      ["b", 1, 1],
      ["c", 3, 0.3333333333333333],
    ]);
    expect(fairShareFactor(3, 4)).toBe(0.5);
  });

  it("ties: sibling users with the same Level FS share a rank (competition ranks 1, 1, 3)", () => {
    const spec = { name: "root", children: [{ name: "a" }, { name: "b" }, { name: "c" }] };
    expect(ranksOf(spec, { a: 10, b: 10, c: 40 })).toEqual({ a: 1, b: 1, c: 3 });
  });

  it("ties: a leaf beside inner nodes, tied with one, gets the rank of that node's best leaf", () => {
    const spec = {
      name: "root",
      children: [
        { name: "m" },
        { name: "g", children: [{ name: "g2" }, { name: "g1" }] },
        { name: "l" },
      ],
    };
    // l and g both have LF 2; l is visited first (leaves before inner nodes on a tie).
    const usage = { l: 10, "g/g2": 10, m: 40 };
    expect(ranksOf(spec, usage)).toEqual({ l: 1, "g/g1": 1, "g/g2": 3, m: 4 });
    expect(rankBudgets(buildTree(spec), usage, OPTIONS).leafIdsInRankOrder).toEqual([
      "l",
      "g/g1",
      "g/g2",
      "m",
    ]);
  });

  it("ties: a user tied with an account whose best leaf is deeper still shares its rank", () => {
    const spec = {
      name: "root",
      children: [
        { name: "l" },
        { name: "g", children: [{ name: "h", children: [{ name: "h1" }] }] },
      ],
    };
    expect(ranksOf(spec, { l: 10, "g/h/h1": 10 })).toEqual({ l: 1, "g/h/h1": 1 });
  });

  it("ties: sibling accounts with the same Level FS are walked as one group, children merged", () => {
    const spec = {
      name: "root",
      children: [
        { name: "p", children: [{ name: "p1" }, { name: "p2" }] },
        { name: "q", children: [{ name: "q1", weight: 3 }, { name: "q2" }] },
      ],
    };
    const usage = { "p/p1": 15, "p/p2": 5, "q/q1": 10, "q/q2": 10 };
    // p and q: LF 1. Merged children: p2 (2), q1 (1.5), p1 (0.666...), q2 (0.5).
    expect(ranksOf(spec, usage)).toEqual({ "p/p2": 1, "q/q1": 2, "p/p1": 3, "q/q2": 4 });
  });
});

describe("rankBudgets edge cases", () => {
  it("ties in LF are visited leaves first, then by name, then by id, merged children too", () => {
    const spec = {
      name: "root",
      children: [
        { name: "b", children: [{ name: "x" }, { name: "w" }] },
        { name: "a", children: [{ name: "y" }, { name: "x" }] },
        { name: "c" },
      ],
    };
    // No usage: every LF is infinity. The leaf c comes before the inner nodes; a and b tie and
    // merge their children, ordered by name, and a/x before b/x by id.
    const tree = buildTree(spec);
    const ranking = rankBudgets(tree, {}, OPTIONS);
    expect(ranking.leafIdsInRankOrder).toEqual(["c", "b/w", "a/x", "b/x", "a/y"]);
    const ranked = createFairTreeRanker(tree)(new Float64Array(tree.nodes.length), OPTIONS);
    expect(ranked.leafIdsInRankOrder).toEqual(ranking.leafIdsInRankOrder);
  });

  it("no usage anywhere: every leaf has LF infinity and all tie at rank 1", () => {
    const spec = {
      name: "root",
      children: [{ name: "a", children: [{ name: "a1" }, { name: "a2" }] }, { name: "b" }],
    };
    expect(ranksOf(spec, {})).toEqual({ "a/a1": 1, "a/a2": 1, b: 1 });
    expect(lfOf(spec, {})).toEqual({
      root: null,
      a: Infinity,
      "a/a1": Infinity,
      "a/a2": Infinity,
      b: Infinity,
    });
  });

  it("ties at every level: equal usage per weight everywhere ranks every leaf 1", () => {
    const spec = {
      name: "root",
      children: [
        { name: "a", children: [{ name: "a1" }, { name: "a2" }] },
        { name: "b", children: [{ name: "b1" }, { name: "b2" }] },
      ],
    };
    expect(ranksOf(spec, { "a/a1": 10, "a/a2": 10, "b/b1": 10, "b/b2": 10 })).toEqual({
      "a/a1": 1,
      "a/a2": 1,
      "b/b1": 1,
      "b/b2": 1,
    });
  });

  it("zero weight: S = 0 gives LF 0 and ranks last even with no usage", () => {
    const spec = { name: "root", children: [{ name: "a", weight: 0 }, { name: "b" }] };
    expect(lfOf(spec, { b: 10 })).toEqual({ root: null, a: 0, b: 1 });
    expect(ranksOf(spec, { b: 10 })).toEqual({ b: 1, a: 2 });
  });

  it("all-zero siblings: fractions 0, LF 0, all tied below their parent", () => {
    const spec = {
      name: "root",
      children: [
        {
          name: "x",
          children: [
            { name: "a", weight: 0 },
            { name: "b", weight: 0 },
          ],
        },
        { name: "y" },
      ],
    };
    const ranking = rankBudgets(buildTree(spec), { "x/a": 5, y: 5 }, OPTIONS);
    expect(ranking.rows.map((row) => [row.id, row.fraction, row.levelFairShare, row.rank])).toEqual(
      [
        ["root", 1, null, null],
        ["x", 0.5, 1, null],
        ["x/a", 0, 0, 1],
        ["x/b", 0, 0, 1],
        ["y", 0.5, 1, 1],
      ],
    );
  });

  it("IEEE doubles in SLURM's order: S/U, not the algebraically equal usage/weight", () => {
    // Mathematically a and b tie (usage per weight 1), but S/U in doubles splits them.
    const spec = {
      name: "root",
      children: [{ name: "a" }, { name: "b", weight: 3 }, { name: "c" }],
    };
    const lf = lfOf(spec, { a: 1, b: 3, c: 2 });
    expect(lf.a).toBe(1.2000000000000002);
    expect(lf.b).toBe(1.2);
    expect(ranksOf(spec, { a: 1, b: 3, c: 2 })).toEqual({ a: 1, b: 2, c: 3 });
    expect(lfOf({ name: "root", children: [{ name: "a" }, { name: "b" }] }, { a: 3, b: 8 }).a).toBe(
      1.8333333333333335,
    );
  });

  it("a tree of a single node ranks the root itself", () => {
    expect(ranksOf({ name: "root" }, {})).toEqual({ root: 1 });
  });

  it("reports usage roll-ups and usage ratios for display", () => {
    const ranking = rankBudgets(
      buildTree({ name: "root", children: [{ name: "a", weight: 3 }, { name: "b" }] }),
      { a: 8 * 604800 * 0.75 * 0.4, b: 8 * 604800 * 0.25 * 1.8 },
      OPTIONS,
    );
    expect(ranking.rows.map((row) => [row.id, row.usageRatio])).toEqual([
      ["root", 0.75],
      ["a", 0.4],
      ["b", 1.8],
    ]);
  });

  it("throws on negative usage (a broken accounting invariant)", () => {
    expect(() =>
      rankBudgets(buildTree({ name: "root", children: [{ name: "a" }] }), { a: -1 }, OPTIONS),
    ).toThrow(RangeError);
  });
});

describe("createFairTreeRanker", () => {
  // Two levels of small trees, usage from a few values so that ties and unchanged ranks are common.
  const treeSpec = fc
    .array(
      fc.record({
        weight: fc.constantFrom(0, 1, 1, 2),
        children: fc.array(fc.constantFrom(0, 1, 1, 3), { maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 4 },
    )
    .map((programs): TreeSpec => ({
      name: "root",
      children: programs.map((program, p) => ({
        name: `p${p}`,
        weight: program.weight,
        children: program.children.map((weight, c) => ({ name: `c${c}`, weight })),
      })),
    }));
  const usages = fc.array(
    fc.array(fc.constantFrom(0, 0, 100, 100, 3600, 50_000), { minLength: 17, maxLength: 17 }),
    { minLength: 1, maxLength: 6 },
  );

  it("gives what rankBudgets gives, call after call, sharing leaf records while ranks hold", () => {
    fc.assert(
      fc.property(treeSpec, usages, (spec, sequence) => {
        const tree = buildTree(spec);
        const rank = createFairTreeRanker(tree);
        let previous: ReturnType<typeof rankBudgets> | null = null;
        const made: [ReturnType<typeof rankBudgets>, ReturnType<typeof rankBudgets>][] = [];
        for (const values of sequence) {
          const byIndex = new Float64Array(tree.nodes.length);
          const byId: Record<string, number> = {};
          tree.nodes.forEach((node, index) => {
            // Inner nodes' entries are not read: fill them with noise.
            byIndex[index] = node.isLeaf ? values[index]! : 7;
            if (node.isLeaf && values[index]! > 0) byId[node.id] = values[index]!;
          });
          const ranking = rank(byIndex, OPTIONS);
          const expected = rankBudgets(tree, byId, OPTIONS);
          made.push([ranking, expected]);
          // A budget's reference reads its one row before the rows are built: the same fields.
          const leaf = expected.rows.find((row) => row.isLeaf)!;
          expect(createBudgetRefs(tree, ranking)(leaf.id)).toEqual({
            id: leaf.id,
            path: leaf.path || leaf.name,
            rank: leaf.rank,
            usageRatio: leaf.usageRatio,
          });
          if (previous) {
            const isSame =
              JSON.stringify(previous.rankByBudgetId) === JSON.stringify(ranking.rankByBudgetId) &&
              previous.leafIdsInRankOrder.join() === ranking.leafIdsInRankOrder.join();
            expect(ranking.rankByBudgetId === previous.rankByBudgetId).toBe(isSame);
          }
          previous = ranking;
        }
        // Rows are built on first read, calls later: still those of their own call.
        for (const [ranking, expected] of made) {
          expect({ ...ranking, rows: ranking.rows }).toEqual(expected);
          // JSON holds them as the plain ranking does.
          expect(JSON.stringify(ranking)).toBe(JSON.stringify(expected));
        }
      }),
      { numRuns: 200 },
    );
  });

  it("rejects negative or non-finite usage of a leaf, as rankBudgets does", () => {
    const tree = buildTree({ name: "root", children: [{ name: "a" }, { name: "b" }] });
    const rank = createFairTreeRanker(tree);
    expect(() => rank(Float64Array.of(0, -1, 0), OPTIONS)).toThrow('Usage of budget "a" is -1');
    expect(() => rank(Float64Array.of(0, 0, Number.NaN), OPTIONS)).toThrow(/"b" is NaN/);
  });
});

describe("findParting", () => {
  // vision's leaf dana used much of her small share, language's riley less of his: yet vision
  // as a program used less of its share than language, and that comparison decides.
  const tree = buildTree({
    name: "lab",
    children: [
      {
        name: "vision",
        children: [
          { name: "dana", weight: 1 },
          { name: "eve", weight: 9 },
        ],
      },
      { name: "language", children: [{ name: "riley" }] },
    ],
  });
  const usage = { "vision/dana": 200, "language/riley": 600 };
  const ranking = rankBudgets(tree, usage, { capacityGpus: 1000, windowSec: 1 });

  it("names the two siblings under the lowest common ancestor, with their usage ratios", () => {
    const parting = findParting(tree, ranking, "vision/dana", "language/riley");
    expect(parting).toEqual({
      higher: { path: "vision", usageRatio: 200 / (0.5 * 1000) },
      lower: { path: "language", usageRatio: 600 / (0.5 * 1000) },
    });
    // Leaves' own ratios point the other way: dana 200 of her 50, riley 600 of his 500.
    const row = (id: string) => ranking.rows[tree.indexById[id]!]!;
    expect(row("vision/dana").usageRatio).toBeGreaterThan(row("language/riley").usageRatio!);
    expect(ranking.rankByBudgetId["vision/dana"]).toBeLessThan(
      ranking.rankByBudgetId["language/riley"]!,
    );
  });

  it("is the leaves themselves when they are siblings; null for one budget or an unknown one", () => {
    expect(findParting(tree, ranking, "vision/eve", "vision/dana")).toEqual({
      higher: { path: "vision/eve", usageRatio: 0 },
      lower: { path: "vision/dana", usageRatio: 200 / (0.05 * 1000) },
    });
    expect(findParting(tree, ranking, "vision/dana", "vision/dana")).toBeNull();
    expect(findParting(tree, ranking, "vision/dana", "gone")).toBeNull();
  });
});
