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

const lfValue = (row: RankingRow): number =>
  row.levelFairShare === "inf"
    ? Number.POSITIVE_INFINITY
    : (row.levelFairShare ?? Number.NEGATIVE_INFINITY);

/**
 * The stored rows (tree preorder) in the order Fair Tree walks them: depth first, siblings by
 * descending level fair-share, a leaf before an inner node on a tie, then by name. Ranks then
 * read down the page, and each branch shows the comparison that placed it (docs/ranking.md).
 *
 * @example orderLikeFairTree(rows).map((row) => row.rank) // [null, null, 1, 2, null, 3]
 */
export function orderLikeFairTree(rows: readonly RankingRow[]): RankingRow[] {
  if (rows.some((row) => row.parentId === undefined)) return [...rows]; // stored before the columns
  const childrenOf = new Map<string | null, RankingRow[]>();
  const ids = new Set(rows.map((row) => row.id));
  for (const row of rows) {
    const parentId = row.parentId && ids.has(row.parentId) ? row.parentId : null;
    const list = childrenOf.get(parentId);
    if (list) list.push(row);
    else childrenOf.set(parentId, [row]);
  }
  const out: RankingRow[] = [];
  const visit = (parentId: string | null) => {
    const siblings = [...(childrenOf.get(parentId) ?? [])].sort(
      (a, b) =>
        lfValue(b) - lfValue(a) ||
        Number(b.isLeaf) - Number(a.isLeaf) ||
        a.name.localeCompare(b.name),
    );
    for (const row of siblings) {
      out.push(row);
      visit(row.id);
    }
  };
  visit(null);
  return out.length === rows.length ? out : [...rows];
}

/** The stored ranking rows (tree preorder), or [] before the first tick. */
export function readRanking(value: unknown): RankingRow[] {
  return Array.isArray(value) ? (value as RankingRow[]) : [];
}
