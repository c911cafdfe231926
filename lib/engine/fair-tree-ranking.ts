import type { BudgetTree } from "./types";
import { usageRatio } from "./usage-window";

// What a Fair Tree ranking is (`rankBudgets`, `createFairTreeRanker`): its rows, and rows built
// only when read.

/** One tree node as ranked on one cluster (the columns of `sshare -l`). */
export type FairTreeRow = {
  id: string;
  path: string;
  name: string;
  isLeaf: boolean;
  weight: number;
  fraction: number;
  effectiveShare: number;
  /** Allocated GPU-seconds of the subtree in the usage window. */
  usageGpuSeconds: number;
  /** usage / (effectiveShare x capacity x W); null when the node is owed nothing. */
  usageRatio: number | null;
  /** LF = S / U among siblings; Infinity when unused (not JSON-safe: print "inf"); null for the root. */
  levelFairShare: number | null;
  /** Competition rank among leaves, 1 = most under-served; null for inner nodes. */
  rank: number | null;
  /** (N - rank + 1) / N for N leaves, as `sshare` prints it; null for inner nodes. */
  fairShareFactor: number | null;
};

/** The Fair Tree ranking of one cluster at one moment. */
export type FairTreeRanking = {
  /** Indexed like `tree.nodes` (depth-first preorder, children in input order). */
  rows: FairTreeRow[];
  /** Leaf id -> rank; a null-prototype record. */
  rankByBudgetId: Record<string, number>;
  /** Leaf ids in the order Fair Tree visits them (ties: leaves before inner nodes, then name). */
  leafIdsInRankOrder: string[];
  leafCount: number;
};

/** Capacity and window used only for the display column `usageRatio`. */
export type RankingOptions = { capacityGpus: number; windowSec: number };

/**
 * Level fair-share LF = S / U exactly as SLURM computes it, in IEEE doubles in that order:
 * S = 0 gives 0 (last), else U = 0 gives Infinity (first).
 *
 * @example levelFairShare(0.5, 0.25) // 2
 */
export function levelFairShare(shareNorm: number, usageNorm: number): number {
  return shareNorm === 0 ? 0 : shareNorm / usageNorm;
}

/**
 * SLURM's fair-share factor of a leaf: (N - rank + 1) / N, in (0, 1]; rank 1 gives 1.
 *
 * @example fairShareFactor(3, 4) // 0.5
 */
export function fairShareFactor(rank: number, leafCount: number): number {
  return (leafCount - rank + 1) / leafCount;
}

/**
 * The ranking with its rows: built at once, or on first read when `isLazy` (a ranker's, which
 * reuses `usage`: rows then read a copy of it). Internal to the ranker.
 *
 * @example rankingWithRows(tree, usage, options, ranks, false, { rankByBudgetId, leafIdsInRankOrder })
 */
export function rankingWithRows(
  tree: BudgetTree,
  usage: Float64Array,
  options: RankingOptions,
  ranks: readonly number[],
  isLazy: boolean,
  leaves: Pick<FairTreeRanking, "rankByBudgetId" | "leafIdsInRankOrder">,
): FairTreeRanking {
  const { nodes, leafCount } = tree;
  const { rankByBudgetId, leafIdsInRankOrder } = leaves;
  // Rows read a copy of usage when built later: the ranker reuses its array.
  let rowUsage: ArrayLike<number> = usage;
  if (isLazy) {
    const copy: number[] = new Array<number>(usage.length);
    for (let index = 0; index < usage.length; index += 1) copy[index] = usage[index]!;
    rowUsage = copy;
  }
  // A row's LF from the usage it reads, as `rankRolledUp` computed it (the ranker reuses `lf`).
  const rowLf = (index: number): number => {
    const parentUsage = rowUsage[nodes[index]!.parentIndex]!;
    const usageNorm = parentUsage === 0 ? 0 : rowUsage[index]! / parentUsage;
    return levelFairShare(nodes[index]!.fraction, usageNorm);
  };
  const makeRow = (index: number): FairTreeRow => {
    const node = nodes[index]!;
    const leafRank = node.isLeaf ? ranks[index]! : null;
    return {
      id: node.id,
      path: node.path,
      name: node.name,
      isLeaf: node.isLeaf,
      weight: node.weight,
      fraction: node.fraction,
      effectiveShare: node.effectiveShare,
      usageGpuSeconds: rowUsage[index]!,
      usageRatio: usageRatio(
        rowUsage[index]!,
        node.effectiveShare,
        options.capacityGpus,
        options.windowSec,
      ),
      levelFairShare: index === 0 ? null : rowLf(index),
      rank: leafRank,
      fairShareFactor: leafRank === null ? null : fairShareFactor(leafRank, leafCount),
    };
  };
  return isLazy
    ? new RankingWithLazyRows(makeRow, nodes.length, rankByBudgetId, leafIdsInRankOrder, leafCount)
    : {
        rows: nodes.map((_, index) => makeRow(index)),
        rankByBudgetId,
        leafIdsInRankOrder,
        leafCount,
      };
}

/**
 * A ranking whose rows are built on first read: a pass reads the rows of the few budgets its
 * decisions name (`rowAt`), most passes none. A class, so the getter sits on the prototype (V8's
 * fast path); `toJSON` writes what the plain object would.
 */
class RankingWithLazyRows implements FairTreeRanking {
  readonly #makeRow: (index: number) => FairTreeRow;
  readonly #rowCount: number;
  #rows: FairTreeRow[] | null = null;
  /** Rows built one at a time before all were read. */
  #someRows: (FairTreeRow | undefined)[] | null = null;

  constructor(
    makeRow: (index: number) => FairTreeRow,
    rowCount: number,
    readonly rankByBudgetId: Record<string, number>,
    readonly leafIdsInRankOrder: string[],
    readonly leafCount: number,
  ) {
    this.#makeRow = makeRow;
    this.#rowCount = rowCount;
  }

  get rows(): FairTreeRow[] {
    if (this.#rows === null) {
      const rows: FairTreeRow[] = [];
      for (let index = 0; index < this.#rowCount; index += 1) rows.push(this.rowAt(index));
      this.#rows = rows;
      this.#someRows = null;
    }
    return this.#rows;
  }

  /** The row of tree node `index`, built alone if the rows are not. */
  rowAt(index: number): FairTreeRow {
    if (this.#rows !== null) return this.#rows[index]!;
    const some = (this.#someRows ??= []);
    return (some[index] ??= this.#makeRow(index));
  }

  toJSON(): FairTreeRanking {
    const { rows, rankByBudgetId, leafIdsInRankOrder, leafCount } = this;
    return { rows, rankByBudgetId, leafIdsInRankOrder, leafCount };
  }
}

/**
 * The row of tree node `index`, without building every row of a lazy ranking.
 *
 * @example rowOf(ranking, tree.indexById["vision"]!)?.usageRatio
 */
export function rowOf(ranking: FairTreeRanking, index: number): FairTreeRow | undefined {
  return ranking instanceof RankingWithLazyRows ? ranking.rowAt(index) : ranking.rows[index];
}
