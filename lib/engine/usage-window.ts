import { createRecord } from "./budget-tree";
import type { BudgetTree, UsageMode, UsageRun } from "./types";

/** docs/ranking.md: the default lookback window W, 7 days in seconds. */
export const DEFAULT_LOOKBACK_SEC = 7 * 24 * 3600;

/** The default usage mode: a sliding 7-day window. */
export const DEFAULT_USAGE_MODE: UsageMode = { kind: "window", lookbackSec: DEFAULT_LOOKBACK_SEC };

/**
 * Allocated GPU-seconds of one run counted at `nowSec` (docs/ranking.md).
 *
 * Window mode: the overlap of [startSec, endSec ?? nowSec] with [nowSec - W, nowSec], times
 * GPUs. Decay mode: each GPU-second at time t weighs 2^(-(nowSec - t) / halfLife), integrated
 * exactly. Unallocated runs count 0; time after `nowSec` never counts.
 *
 * @example
 * runUsageGpuSeconds({ budgetId: "a", gpus: 8, startSec: 0, endSec: null, isAllocated: true },
 *   3600, { kind: "window", lookbackSec: 604800 }) // 28800
 */
export function runUsageGpuSeconds(run: UsageRun, nowSec: number, mode: UsageMode): number {
  if (!run.isAllocated || run.gpus <= 0) return 0;
  const endSec = Math.min(run.endSec ?? nowSec, nowSec);
  if (mode.kind === "window") {
    const fromSec = Math.max(run.startSec, nowSec - mode.lookbackSec);
    return endSec > fromSec ? (endSec - fromSec) * run.gpus : 0;
  }
  if (endSec <= run.startSec) return 0;
  const halfLife = mode.halfLifeSec;
  // Integral of 2^(-(now - t)/H) dt over [start, end] = H/ln2 * (2^(-(now-end)/H) - 2^(-(now-start)/H)).
  const weightEnd = Math.pow(2, -(nowSec - endSec) / halfLife);
  const weightStart = Math.pow(2, -(nowSec - run.startSec) / halfLife);
  return ((run.gpus * halfLife) / Math.LN2) * (weightEnd - weightStart);
}

/**
 * Allocated GPU-seconds per leaf budget at `nowSec`: the `leafUsage` input of ranking and of
 * the scheduling pass. Running runs (`endSec: null`) count up to now; unallocated time never
 * counts. Budgets without usage are absent (read them as 0).
 *
 * @example
 * computeLeafUsage([{ budgetId: "a", gpus: 2, startSec: 0, endSec: 100, isAllocated: true }], 100)
 * // { a: 200 }
 */
export function computeLeafUsage(
  runs: readonly UsageRun[],
  nowSec: number,
  mode: UsageMode = DEFAULT_USAGE_MODE,
): Record<string, number> {
  const usage = createRecord<number>();
  for (const run of runs) {
    const gpuSeconds = runUsageGpuSeconds(run, nowSec, mode);
    if (gpuSeconds > 0) usage[run.budgetId] = (usage[run.budgetId] ?? 0) + gpuSeconds;
  }
  return usage;
}

/**
 * The length of window that holds the same total weight as the mode: W itself, or
 * halfLife / ln 2 for decay (the integral of the decay weight). Usage ratios divide by it.
 *
 * @example usageWindowSec({ kind: "decay", halfLifeSec: 3600 }) // 5193.8...
 */
export function usageWindowSec(mode: UsageMode): number {
  return mode.kind === "window" ? mode.lookbackSec : mode.halfLifeSec / Math.LN2;
}

/**
 * Usage of every tree node: leaves from `leafUsage` (absent = 0), inner nodes the sum of their
 * children in input order. Indexed like `tree.nodes`. Throws on negative or non-finite usage
 * (a broken invariant of the caller's accounting).
 *
 * @example rollUpUsage(tree, { a: 10, b: 5 })[0] // 15 (the root)
 */
export function rollUpUsage(tree: BudgetTree, leafUsage: Record<string, number>): Float64Array {
  const usage = new Float64Array(tree.nodes.length);
  tree.nodes.forEach((node, index) => {
    if (node.isLeaf) usage[index] = leafUsage[node.id] ?? 0;
  });
  return rollUpInPlace(tree, usage);
}

/**
 * {@link rollUpUsage} on usage given by node index: leaves' entries are read (and checked), inner
 * nodes' entries are overwritten with their subtree's sum. Returns `usage`.
 *
 * @example rollUpInPlace(tree, Float64Array.of(0, 10, 5))[0] // 15 (the root of two leaves)
 */
export function rollUpInPlace(tree: BudgetTree, usage: Float64Array): Float64Array {
  // Preorder: children come after parents, so a reverse sweep sums bottom-up. Children are
  // added in input order so the floating-point sum is the same on every call.
  for (let i = tree.nodes.length - 1; i >= 0; i -= 1) {
    const node = tree.nodes[i]!;
    if (node.isLeaf) {
      const value = usage[i]!;
      if (!Number.isFinite(value) || value < 0) {
        throw new RangeError(`Usage of budget "${node.id}" is ${value}; it must be finite, >= 0.`);
      }
    } else {
      let sum = 0;
      for (const child of node.childIndices) sum += usage[child]!;
      usage[i] = sum;
    }
  }
  return usage;
}

/**
 * Usage ratio for display (docs/ranking.md): usage / (effectiveShare x capacity x W).
 * Below 1 the node used less than its share over the window. Null when the node is owed
 * nothing (share or capacity 0).
 *
 * @example usageRatio(302400, 0.5, 1, 604800) // 1
 */
export function usageRatio(
  usageGpuSeconds: number,
  effectiveShare: number,
  capacityGpus: number,
  windowSec: number,
): number | null {
  const owedGpuSeconds = effectiveShare * capacityGpus * windowSec;
  return owedGpuSeconds > 0 ? usageGpuSeconds / owedGpuSeconds : null;
}
