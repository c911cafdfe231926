import { describe, expect, it } from "vitest";
import { orderRankingLikeFairTree, storedLevelFairShare, type RankingRow } from "./ranking";

function row(
  id: string,
  parentId: string | null,
  levelFairShare: RankingRow["levelFairShare"],
  rank: number | null = null,
): RankingRow {
  return {
    id,
    path: id,
    name: id.split("/").pop()!,
    depth: id === "lab" ? 0 : id.split("/").length,
    isLeaf: rank !== null,
    effectiveShare: 0,
    usageGpuSeconds: 0,
    usageRatio: null,
    rank,
    parentId,
    weight: 1,
    fraction: 0.5,
    levelFairShare,
  };
}

describe("orderRankingLikeFairTree", () => {
  it("walks depth first with siblings by descending level fair-share, so ranks read down", () => {
    const rows = [
      row("lab", null, null),
      row("language", "lab", 0.8),
      row("language/riley", "language", 1, 3),
      row("vision", "lab", 1.4),
      row("vision/dana", "vision", 0.5, 2),
      row("vision/eve", "vision", "inf", 1),
    ];
    expect(orderRankingLikeFairTree(rows).map((entry) => entry.id)).toEqual([
      "lab",
      "vision",
      "vision/eve",
      "vision/dana",
      "language",
      "language/riley",
    ]);
  });

  it("puts a leaf before an inner node on a tie, and keeps rankings stored before the columns", () => {
    const tied = [
      row("lab", null, null),
      row("p", "lab", 1),
      row("p/x", "p", 1, 2),
      row("a", "lab", 1, 1),
    ];
    expect(orderRankingLikeFairTree(tied).map((entry) => entry.id)).toEqual([
      "lab",
      "a",
      "p",
      "p/x",
    ]);
    const old = tied.map(({ parentId: _parentId, ...rest }) => rest);
    expect(orderRankingLikeFairTree(old).map((entry) => entry.id)).toEqual([
      "lab",
      "p",
      "p/x",
      "a",
    ]);
  });

  it("stores Infinity as inf (JSON has no Infinity)", () => {
    expect(storedLevelFairShare(Number.POSITIVE_INFINITY)).toBe("inf");
    expect(storedLevelFairShare(0.5)).toBe(0.5);
    expect(storedLevelFairShare(null)).toBeNull();
  });
});
