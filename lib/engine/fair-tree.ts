import { createRecord } from "./budget-tree";
import { sortSmall } from "./sort-small";
import { rollUpInPlace, rollUpUsage, usageRatio } from "./usage-window";
import type { BudgetRef, Parting, PartingSide } from "./reasons";
import type { BudgetTree } from "./types";

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
 * Ranks every leaf of the tree with SLURM's Fair Tree algorithm (docs/ranking.md, ADR 002).
 *
 * Per inner node: S = weight / sum of sibling weights, U = usage / parent usage (0 when the
 * parent has no usage), LF = S / U. A depth-first walk visits siblings by descending LF and
 * gives leaves competition ranks (1, 1, 3). Ties: sibling leaves with equal LF share a rank;
 * a leaf tied with a sibling inner node shares the rank of that node's best leaf (leaves are
 * visited first); tied sibling inner nodes are walked as one group with their children merged.
 *
 * @param leafUsage allocated GPU-seconds per leaf id in the window (absent = 0)
 * @example
 * // root -> a (weight 1, usage 10), b (weight 1, usage 0): b has LF Infinity and ranks 1.
 * rankBudgets(tree, { a: 10 }, { capacityGpus: 8, windowSec: 604800 }).rankByBudgetId
 * // { b: 1, a: 2 }
 */
export function rankBudgets(
  tree: BudgetTree,
  leafUsage: Record<string, number>,
  options: RankingOptions,
): FairTreeRanking {
  return rankRolledUp(tree, rollUpUsage(tree, leafUsage), options, null, null).ranking;
}

/** Ranks the same tree again and again: see {@link createFairTreeRanker}. */
export type FairTreeRanker = (
  leafUsageByIndex: Float64Array,
  options: RankingOptions,
) => FairTreeRanking;

/**
 * A {@link rankBudgets} for one tree ranked again and again (the simulator ranks once per pass):
 * usage comes by tree node index instead of by id, and when the leaves' ranks and order are those
 * of the previous call, the new ranking shares that call's `rankByBudgetId` and
 * `leafIdsInRankOrder` instead of building them again. When every node's siblings are still in
 * the order and with the ties of the previous call, the tree is not walked again. Rankings are
 * read-only. Gives what `rankBudgets` gives on the same usage (property-tested).
 *
 * @param leafUsageByIndex allocated GPU-seconds per tree node index; only leaves' entries are read
 * @example
 * const rank = createFairTreeRanker(tree);
 * rank(Float64Array.of(0, 10, 0), { capacityGpus: 8, windowSec: 604800 }).rankByBudgetId
 */
export function createFairTreeRanker(tree: BudgetTree): FairTreeRanker {
  const usage = new Float64Array(tree.nodes.length);
  const scratch: RankScratch = {
    lf: new Array<number>(tree.nodes.length).fill(0),
    ranks: new Array<number>(tree.nodes.length).fill(0),
    leafOrder: [],
    merged: new Map(),
    isTiedWithPrevious: new Uint8Array(tree.nodes.length),
    hasMerged: true,
  };
  let previous: RankedLeaves | null = null;
  return (leafUsageByIndex, options) => {
    for (let index = 0; index < usage.length; index += 1) usage[index] = leafUsageByIndex[index]!;
    previous = rankRolledUp(tree, rollUpInPlace(tree, usage), options, previous, scratch);
    return previous.ranking;
  };
}

/**
 * Arrays a ranker reuses from one ranking to the next (a ranking keeps copies of what its rows
 * read, and only when its leaves' ranks or order changed).
 */
type RankScratch = {
  lf: number[];
  ranks: number[];
  leafOrder: number[];
  /** Per first sibling of tied inner siblings: those siblings, and their children as last sorted. */
  merged: Map<number, { members: number[]; order: number[] }>;
  /** Per node, as the last walk sorted its siblings: 1 if its LF equals the sibling's before it. */
  isTiedWithPrevious: Uint8Array;
  /** Whether the last walk walked tied inner siblings as one (or no walk was made yet). */
  hasMerged: boolean;
};

/**
 * A ranking with its leaves' ranks by node index, its leaves in visiting order, and each inner
 * node's children in the order they were last sorted in (walked alone, not merged with tied
 * siblings): the next ranking sorts from there, mostly already in order.
 */
type RankedLeaves = {
  ranking: FairTreeRanking;
  ranks: number[];
  order: number[];
  childOrder: (number[] | undefined)[];
};

/**
 * The ranking on usage already rolled up (`rollUpUsage`), sharing `previous`'s leaf records
 * when the leaves' ranks and order are unchanged. With `scratch` (a ranker's), rows are built on
 * first read, `usage` may be reused by the caller (rows read a copy), and `previous`'s children
 * orders are sorted again in place.
 */
function rankRolledUp(
  tree: BudgetTree,
  usage: Float64Array,
  options: RankingOptions,
  previous: RankedLeaves | null,
  scratch: RankScratch | null,
): RankedLeaves {
  const { nodes } = tree;
  // Plain arrays: typed arrays this small cost more to make than to use. Only children's
  // entries of `lf` are written and read.
  const lf: number[] = scratch ? scratch.lf : new Array<number>(nodes.length).fill(0);
  for (let parentIndex = 0; parentIndex < nodes.length; parentIndex += 1) {
    const parentUsage = usage[parentIndex]!;
    for (const child of nodes[parentIndex]!.childIndices) {
      // U = usage / parent usage, 0 when the parent has none (SLURM's _ft_set_assoc_usage_efctv).
      const usageNorm = parentUsage === 0 ? 0 : usage[child]! / parentUsage;
      lf[child] = levelFairShare(nodes[child]!.fraction, usageNorm);
    }
  }
  const walked = walkLeaves(tree, lf, previous, scratch);
  const { leafOrder, isRepeated } = walked;

  let isUnchanged = isRepeated || (previous !== null && previous.order.length === leafOrder.length);
  for (let i = 0; !isRepeated && isUnchanged && i < leafOrder.length; i += 1) {
    const index = leafOrder[i]!;
    isUnchanged = previous!.order[i] === index && previous!.ranks[index] === walked.ranks[index];
  }
  // The ranks and order this ranking keeps: the previous ones when equal, else its own copies.
  const ranks = isUnchanged ? previous!.ranks : scratch ? walked.ranks.slice() : walked.ranks;
  const order = isUnchanged ? previous!.order : scratch ? leafOrder.slice() : leafOrder;
  let rankByBudgetId: Record<string, number>;
  let leafIdsInRankOrder: string[];
  if (isUnchanged) {
    ({ rankByBudgetId, leafIdsInRankOrder } = previous!.ranking);
  } else {
    rankByBudgetId = createRecord<number>();
    leafIdsInRankOrder = leafOrder.map((index) => nodes[index]!.id);
    for (const index of leafOrder) rankByBudgetId[nodes[index]!.id] = ranks[index]!;
  }
  const ranking = rankingWithRows(tree, usage, options, ranks, scratch !== null, {
    rankByBudgetId,
    leafIdsInRankOrder,
  });
  return { ranking, ranks, order, childOrder: walked.childOrder };
}

/** What a walk of the tree gives: see {@link walkLeaves}. */
type WalkedLeaves = {
  /** Leaf rank by node index (inner nodes keep 0): the scratch's array when there is one. */
  ranks: number[];
  /** Leaves in visiting order: the scratch's array when there is one. */
  leafOrder: number[];
  /** Children per inner node in the order they were sorted in, kept for the next ranking. */
  childOrder: (number[] | undefined)[];
  /** Whether the walk was not made again: the last ranks and order stand (`leafOrder` empty). */
  isRepeated: boolean;
};

/**
 * The leaves' ranks and visiting order by SLURM's Fair Tree walk on level fair shares `lf`
 * (docs/ranking.md): siblings sorted by LF (leaves first on ties, then name, then id), tied
 * inner siblings walked as one, ties carried down. With a ranker's `scratch`, the walk is not
 * made again when it would do what the last one did (`isRepeatWalk`).
 */
function walkLeaves(
  tree: BudgetTree,
  lf: readonly number[],
  previous: RankedLeaves | null,
  scratch: RankScratch | null,
): WalkedLeaves {
  const { nodes } = tree;
  const isLazy = scratch !== null;
  // Every leaf's rank is written below; inner nodes keep 0.
  const ranks: number[] = scratch ? scratch.ranks : new Array<number>(nodes.length).fill(0);
  const leafOrder: number[] = scratch ? scratch.leafOrder : [];
  leafOrder.length = 0;
  let rank = 0;
  let nextRankNoTies = 1;
  const compareSiblings = siblingOrder(tree, lf);

  // Children sorted per inner node, kept for the next ranking. The order is total (ids are
  // unique), so the sort gives the same result from any starting order. (Only the last order is
  // read here: a closure holding `previous` would keep every ranking before it alive.)
  const lastChildOrder = previous?.childOrder;
  const childOrder: (number[] | undefined)[] = isLazy && lastChildOrder ? lastChildOrder : [];
  const childrenOf = (index: number): number[] => {
    const last = lastChildOrder?.[index];
    const children = last ? (isLazy ? last : last.slice()) : [...nodes[index]!.childIndices];
    childOrder[index] = children;
    return children;
  };
  // Mirrors SLURM's _calc_tree_fs: `isGroupTied` carries a tie with the previous sibling
  // into the first child visited below an inner node.
  const walk = (siblings: number[], isGroupTied: boolean): void => {
    sortSmall(siblings, compareSiblings);
    for (let i = 0; i < siblings.length; i += 1) {
      const index = siblings[i]!;
      const isTiedWithPrevious = i > 0 && lf[siblings[i - 1]!] === lf[index];
      if (scratch) scratch.isTiedWithPrevious[index] = isTiedWithPrevious ? 1 : 0;
      const isTied = i === 0 ? isGroupTied : isTiedWithPrevious;
      const node = nodes[index]!;
      if (node.isLeaf) {
        if (!isTied) rank = nextRankNoTies;
        ranks[index] = rank;
        leafOrder.push(index);
        nextRankNoTies += 1;
        continue;
      }
      const isMerged =
        i + 1 < siblings.length &&
        !nodes[siblings[i + 1]!]!.isLeaf &&
        lf[siblings[i + 1]!] === lf[index];
      if (!isMerged) {
        walk(childrenOf(index), isTied);
        continue;
      }
      if (scratch) scratch.hasMerged = true;
      const from = i;
      while (i + 1 < siblings.length) {
        const next = siblings[i + 1]!;
        if (nodes[next]!.isLeaf || lf[next] !== lf[index]) break;
        i += 1;
      }
      walk(mergedChildren(tree, scratch, siblings, from, i), isTied);
    }
  };
  const isRepeated = isRepeatWalk(tree, lf, lastChildOrder, scratch);
  if (!isRepeated) {
    if (scratch) scratch.hasMerged = false;
    walk(childrenOf(0), false);
    if (nodes[0]!.isLeaf) {
      // A tree of one node: the root is the only budget.
      ranks[0] = 1;
      leafOrder.push(0);
    }
  }
  return { ranks, leafOrder, childOrder, isRepeated };
}

/** The order of siblings in the walk: LF descending, then leaves first, then name, then id. */
function siblingOrder(tree: BudgetTree, lf: readonly number[]): (a: number, b: number) => number {
  const { nodes } = tree;
  return (a, b) => {
    const lfA = lf[a]!;
    const lfB = lf[b]!;
    if (lfA !== lfB) return lfA > lfB ? -1 : 1;
    const nodeA = nodes[a]!;
    const nodeB = nodes[b]!;
    if (nodeA.isLeaf !== nodeB.isLeaf) return nodeA.isLeaf ? -1 : 1;
    // SLURM leaves equal siblings in qsort's order; a fixed order keeps the walk deterministic.
    if (nodeA.name !== nodeB.name) return nodeA.name < nodeB.name ? -1 : 1;
    return nodeA.id < nodeB.id ? -1 : nodeA.id > nodeB.id ? 1 : 0;
  };
}

/**
 * The children of tied inner siblings `from`..`to`, walked as one: with a ranker's scratch, in
 * the order they were last sorted in when the same siblings tied (the sort's result does not
 * depend on it), else in tree order.
 */
function mergedChildren(
  tree: BudgetTree,
  scratch: RankScratch | null,
  siblings: readonly number[],
  from: number,
  to: number,
): number[] {
  const kept = scratch?.merged.get(siblings[from]!);
  const isSame =
    kept !== undefined &&
    kept.members.length === to - from + 1 &&
    kept.members.every((member, k) => member === siblings[from + k]);
  if (isSame) return kept.order;
  const order: number[] = [];
  for (let k = from; k <= to; k += 1) order.push(...tree.nodes[siblings[k]!]!.childIndices);
  scratch?.merged.set(siblings[from]!, { members: siblings.slice(from, to + 1), order });
  return order;
}

/**
 * Whether the walk would do again what the last one did: no tied inner siblings were walked as
 * one, and every inner node's children, in the order last sorted, are still in order with the
 * same ties. The walk's every step depends only on those, so the leaves' ranks and order are
 * the last ones.
 */
function isRepeatWalk(
  tree: BudgetTree,
  lf: readonly number[],
  lastChildOrder: readonly (number[] | undefined)[] | undefined,
  scratch: RankScratch | null,
): boolean {
  if (scratch === null || scratch.hasMerged || !lastChildOrder) return false;
  for (let parentIndex = 0; parentIndex < tree.nodes.length; parentIndex += 1) {
    const children = lastChildOrder[parentIndex];
    if (children === undefined) continue;
    for (let i = 1; i < children.length; i += 1) {
      const child = children[i]!;
      const lfBefore = lf[children[i - 1]!]!;
      const lfChild = lf[child]!;
      // In order by LF, tied as before; siblings tied before are in the order of their names.
      if (lfBefore < lfChild) return false;
      if ((lfBefore === lfChild) !== (scratch.isTiedWithPrevious[child] === 1)) return false;
    }
  }
  return true;
}

/**
 * The ranking with its rows: built at once, or on first read when `isLazy` (a ranker's, which
 * reuses `usage`: rows then read a copy of it).
 */
function rankingWithRows(
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
 * SLURM's fair-share factor of a leaf: (N - rank + 1) / N, in (0, 1]; rank 1 gives 1.
 *
 * @example fairShareFactor(3, 4) // 0.5
 */
export function fairShareFactor(rank: number, leafCount: number): number {
  return (leafCount - rank + 1) / leafCount;
}

/** What {@link orderLikeFairTree} needs of a row. */
export type WalkedRow = {
  id: string;
  parentId: string | null;
  name: string;
  isLeaf: boolean;
  /** Infinity for an unused branch; -Infinity (last) when unknown, e.g. the root. */
  levelFairShare: number;
};

/**
 * Rows of a tree (any order) in the order Fair Tree walks it: depth first, siblings by
 * descending level fair-share, a leaf before an inner node on a tie, then by name. Listed this
 * way, leaf ranks read down the page and each branch sits where its comparison put it
 * (the cluster page's rank table, `allot queue`). Rows whose parent is missing count as roots.
 *
 * @example orderLikeFairTree(rows, (row) => row).map((row) => row.id) // ["root", "b", "b/x", "a"]
 */
export function orderLikeFairTree<Row>(rows: readonly Row[], view: (row: Row) => WalkedRow): Row[] {
  const views = new Map(rows.map((row) => [row, view(row)]));
  const ids = new Set([...views.values()].map((walked) => walked.id));
  const childrenOf = new Map<string | null, Row[]>();
  for (const [row, walked] of views) {
    const parentId = walked.parentId !== null && ids.has(walked.parentId) ? walked.parentId : null;
    const list = childrenOf.get(parentId);
    if (list) list.push(row);
    else childrenOf.set(parentId, [row]);
  }
  const out: Row[] = [];
  const visit = (parentId: string | null) => {
    const siblings = [...(childrenOf.get(parentId) ?? [])].sort((a, b) => {
      const x = views.get(a)!;
      const y = views.get(b)!;
      return (
        (y.levelFairShare > x.levelFairShare ? 1 : y.levelFairShare < x.levelFairShare ? -1 : 0) ||
        Number(y.isLeaf) - Number(x.isLeaf) ||
        x.name.localeCompare(y.name)
      );
    });
    for (const row of siblings) {
      out.push(row);
      visit(views.get(row)!.id);
    }
  };
  visit(null);
  return out;
}

/** The row of tree node `index`, without building every row of a lazy ranking. */
function rowOf(ranking: FairTreeRanking, index: number): FairTreeRow | undefined {
  return ranking instanceof RankingWithLazyRows ? ranking.rowAt(index) : ranking.rows[index];
}

/**
 * Where two budgets' paths part (docs/ranking.md): the two children of their lowest common
 * ancestor, on each one's side, with their usage ratios. Fair Tree orders those two siblings,
 * so that comparison decides which budget ranks higher, whatever the leaves' own ratios.
 * Null when a budget is not in the tree or both are the same.
 *
 * @example findParting(tree, ranking, "vision/perception/dana", "language/lm-posttrain/riley")
 * // { higher: { path: "vision", usageRatio: 0.92 }, lower: { path: "language", usageRatio: 1.3 } }
 */
export function findParting(
  tree: BudgetTree,
  ranking: FairTreeRanking,
  higherId: string,
  lowerId: string,
): Parting | null {
  const higher = tree.indexById[higherId];
  const lower = tree.indexById[lowerId];
  if (higher === undefined || lower === undefined || higher === lower) return null;
  const ancestorsOfLower = new Set<number>();
  for (let at = lower; at !== -1; at = tree.nodes[at]!.parentIndex) ancestorsOfLower.add(at);
  let higherSide = higher;
  while (!ancestorsOfLower.has(tree.nodes[higherSide]!.parentIndex)) {
    higherSide = tree.nodes[higherSide]!.parentIndex;
    if (higherSide === -1) return null;
  }
  const common = tree.nodes[higherSide]!.parentIndex;
  let lowerSide = lower;
  while (tree.nodes[lowerSide]!.parentIndex !== common)
    lowerSide = tree.nodes[lowerSide]!.parentIndex;
  const side = (index: number): PartingSide => ({
    path: tree.nodes[index]!.path,
    usageRatio: rowOf(ranking, index)?.usageRatio ?? null,
  });
  return { higher: side(higherSide), lower: side(lowerSide) };
}

/**
 * {@link findParting} memoised for one ranking: a pass asks it for many waiting jobs of the
 * same few pairs of budgets.
 *
 * @example createPartingLookup(tree, ranking)("vision/dana", "language/riley")?.higher.path // "vision"
 */
export function createPartingLookup(
  tree: BudgetTree,
  ranking: FairTreeRanking,
): (higherId: string, lowerId: string) => Parting | null {
  const partings = new Map<string, Parting | null>();
  return (higherId, lowerId) => {
    const key = `${higherId}\u0000${lowerId}`;
    let parting = partings.get(key);
    if (parting === undefined) {
      parting = findParting(tree, ranking, higherId, lowerId);
      partings.set(key, parting);
    }
    return parting;
  };
}

/**
 * A memoised lookup from budget id to the `BudgetRef` decisions carry (path, rank, usage
 * ratio from this ranking). Budgets missing from the tree get their id as path and null rank.
 *
 * @example createBudgetRefs(tree, ranking)("llm/pretrain").rank // 2
 */
export function createBudgetRefs(
  tree: BudgetTree,
  ranking: FairTreeRanking,
): (budgetId: string) => BudgetRef {
  const refs = new Map<string, BudgetRef>();
  return (budgetId) => {
    let ref = refs.get(budgetId);
    if (!ref) {
      const index = tree.indexById[budgetId];
      // One row, not all: a pass names a few budgets.
      const row = index === undefined ? undefined : rowOf(ranking, index);
      ref = {
        id: budgetId,
        path: row ? row.path || row.name : budgetId,
        rank: row?.rank ?? null,
        usageRatio: row?.usageRatio ?? null,
      };
      refs.set(budgetId, ref);
    }
    return ref;
  };
}
