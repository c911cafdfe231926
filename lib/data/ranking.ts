// The Fair Tree ranking each tick stores on its cluster (clusters.ranking), read back safely.
import "server-only";

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
};

/** The stored ranking rows (tree preorder), or [] before the first tick. */
export function readRanking(value: unknown): RankingRow[] {
  return Array.isArray(value) ? (value as RankingRow[]) : [];
}
