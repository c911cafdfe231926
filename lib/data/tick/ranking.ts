// The Fair Tree ranking each tick stores on its cluster (clusters.ranking), read back safely.
import "server-only";
import { orderLikeFairTree } from "../../engine";

export type RankingRow = {
  id: string;
  path: string;
  name: string;
  depth: number;
  isLeaf: boolean;
  effectiveShare: number;
  usageGpuSeconds: number;
  usageRatio: number | null;
  rank: number | null;
  /** The columns of `sshare -l`, stored since 2026-12-04 (absent in rankings stored before). */
  parentId?: string | null;
  weight?: number;
  /** weight / sum of sibling weights. */
  fraction?: number;
  /** Fair Tree's LF = S / U among siblings: "inf" when unused, null for the root. */
  levelFairShare?: number | "inf" | null;
};

/** LF as JSON can hold it: Infinity (no usage) as "inf". */
export function storedLevelFairShare(value: number | null): number | "inf" | null {
  return value === Number.POSITIVE_INFINITY ? "inf" : value;
}

/**
 * The stored rows (tree preorder) in the order Fair Tree walks them (`orderLikeFairTree` of the
 * engine), so that ranks read down the page. Rankings stored before the columns stay as they are.
 *
 * @example orderRankingLikeFairTree(rows).map((row) => row.rank) // [null, null, 1, 2, null, 3]
 */
export function orderRankingLikeFairTree(rows: readonly RankingRow[]): RankingRow[] {
  if (rows.some((row) => row.parentId === undefined)) return [...rows];
  return orderLikeFairTree(rows, (row) => ({
    id: row.id,
    parentId: row.parentId ?? null,
    name: row.name,
    isLeaf: row.isLeaf,
    levelFairShare:
      row.levelFairShare === "inf"
        ? Number.POSITIVE_INFINITY
        : (row.levelFairShare ?? Number.NEGATIVE_INFINITY),
  }));
}

/** The stored ranking rows (tree preorder), or [] before the first tick. */
export function readRanking(value: unknown): RankingRow[] {
  return Array.isArray(value) ? (value as RankingRow[]) : [];
}
