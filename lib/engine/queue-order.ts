import type { Priority } from "./types";

/** Priorities in queue order: a lower number comes first. */
export const PRIORITY_ORDER: Record<Priority, number> = { high: 0, normal: 1, low: 2 };

/** What ordering needs of a pending job. */
export type QueueEntry = {
  id: string;
  budgetId: string;
  priority: Priority;
  submitSec: number;
};

/**
 * The order of two jobs within the places of one group (budgets tied on rank, see `orderQueue`):
 * submit time, then id. The queue's last keys, written once here; `orderQueueIndices` sorts by
 * the same keys in bulk (`sortBySubmitThenId`).
 *
 * @example [b, a].sort(compareSubmit) // the earlier submitted first
 */
export function compareSubmit(a: QueueEntry, b: QueueEntry): number {
  return a.submitSec - b.submitSec || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The order of two jobs of one budget and kind: priority, then `compareSubmit`.
 *
 * @example compareWithinBudget({ ...job, priority: "high" }, job) // < 0
 */
export function compareWithinBudget(a: QueueEntry, b: QueueEntry): number {
  return PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] || compareSubmit(a, b);
}

/**
 * Orders pending jobs (docs/ranking.md, ADR 010): allocated before unallocated, then leaf rank,
 * then priority, then submit time, then id.
 *
 * Priority orders jobs only within the same budget (docs/concepts.md). Budgets usually have
 * distinct ranks and the key above is literal; when several budgets tie on rank they share the
 * tie's places in submit order (then id), and each budget fills its own places with its jobs by
 * priority, then submit time, then id. So a high-priority job can overtake its own budget's
 * jobs but never another budget's.
 *
 * @param rankOf leaf rank of a budget (1 = first); unknown budgets should get leafCount + 1
 * @param isAllocated whether the job would run allocated
 * @returns a new array; the input is not changed. Deterministic for equal inputs.
 * @example
 * orderQueue(jobs, (budgetId) => ranking.rankByBudgetId[budgetId] ?? 99, () => true)
 */
export function orderQueue<T extends QueueEntry>(
  jobs: readonly T[],
  rankOf: (budgetId: string) => number,
  isAllocated: (job: T) => boolean,
): T[] {
  const order = orderQueueIndices(jobs, rankOf, isAllocated);
  const ordered: T[] = new Array<T>(order.length);
  for (let i = 0; i < order.length; i += 1) ordered[i] = jobs[order[i]!]!;
  return ordered;
}

/**
 * `orderQueue` as positions into `jobs` (for callers that keep per-job arrays).
 *
 * @example orderQueueIndices(jobs, rankOf, () => true) // Int32Array [2, 0, 1]
 */
export function orderQueueIndices<T extends QueueEntry>(
  jobs: readonly T[],
  rankOf: (budgetId: string) => number,
  isAllocated: (job: T, index: number) => boolean,
): Int32Array {
  const count = jobs.length;
  const budgetNumbers = new Map<string, number>();
  const budget = new Int32Array(count);
  const allocated = new Uint8Array(count);
  const priority = new Int32Array(count);
  for (let i = 0; i < count; i += 1) {
    const job = jobs[i]!;
    let number = budgetNumbers.get(job.budgetId);
    if (number === undefined) {
      number = budgetNumbers.size;
      budgetNumbers.set(job.budgetId, number);
    }
    budget[i] = number;
    allocated[i] = isAllocated(job, i) ? 1 : 0;
    priority[i] = PRIORITY_ORDER[job.priority];
  }
  // Budgets in id order (so the result does not depend on input order) and by dense rank.
  const budgetIds = [...budgetNumbers.keys()].sort();
  const ranks = budgetIds.map((id) => rankOf(id));
  const distinctRanks = [...new Set(ranks)].sort((a, b) => a - b);
  const rankIndex = new Map(distinctRanks.map((rank, index) => [rank, index]));
  const budgetOrder = new Int32Array(budgetIds.length);
  const budgetRankIndex = new Int32Array(budgetIds.length);
  budgetIds.forEach((id, order) => {
    const number = budgetNumbers.get(id)!;
    budgetOrder[number] = order;
    budgetRankIndex[number] = rankIndex.get(ranks[order]!)!;
  });
  // Group: allocated jobs by rank, then unallocated jobs by rank.
  const groupCount = 2 * distinctRanks.length;
  const group = new Int32Array(count);
  for (let i = 0; i < count; i += 1) {
    const number = budget[i]!;
    group[i] = budgetRankIndex[number]! + (allocated[i] ? 0 : distinctRanks.length);
    budget[i] = budgetOrder[number]!;
  }

  // One sort by (submit time, id); the other keys are small integers, so stable counting
  // sorts on top of it give every order needed in linear time.
  const bySubmit = sortBySubmitThenId(jobs);
  const byPriority = countingSort(bySubmit, priority, 3);
  const byBudget = countingSort(
    countingSort(byPriority, budget, budgetIds.length),
    group,
    groupCount,
  );
  let hasTiedBudgets = false;
  for (let i = 1; i < count && !hasTiedBudgets; i += 1) {
    const a = byBudget[i - 1]!;
    const b = byBudget[i]!;
    hasTiedBudgets = group[a] === group[b] && budget[a] !== budget[b];
  }
  if (!hasTiedBudgets) return byBudget;
  // Tied budgets share their group's places in submit order; each place goes to its budget's
  // next job. Blocks of one (group, budget) are contiguous in byBudget.
  const blockStart = new Int32Array(count);
  for (let i = 0, start = 0; i < count; i += 1) {
    const job = byBudget[i]!;
    const previous = i > 0 ? byBudget[i - 1]! : -1;
    if (previous < 0 || group[previous] !== group[job] || budget[previous] !== budget[job]) {
      start = i;
    }
    blockStart[job] = start;
  }
  const places = countingSort(bySubmit, group, groupCount);
  const taken = new Int32Array(count);
  const ordered = new Int32Array(count);
  for (let i = 0; i < count; i += 1) {
    const start = blockStart[places[i]!]!;
    ordered[i] = byBudget[start + taken[start]!]!;
    taken[start] = taken[start]! + 1;
  }
  return ordered;
}

/**
 * Job positions sorted by submit time, then id (the order of `compareSubmit`). Submit times are
 * replaced by their dense rank and packed with the position into one float (rank x count +
 * position), so the bulk of the work is a native numeric sort; only runs of equal submit times
 * compare ids.
 */
function sortBySubmitThenId(jobs: readonly QueueEntry[]): Int32Array {
  const count = jobs.length;
  const packed = new Float64Array(count);
  let minSubmit = Number.POSITIVE_INFINITY;
  let maxSubmit = Number.NEGATIVE_INFINITY;
  let isWhole = true;
  for (let i = 0; i < count; i += 1) {
    const value = jobs[i]!.submitSec;
    if (value < minSubmit) minSubmit = value;
    if (value > maxSubmit) maxSubmit = value;
    if (!Number.isInteger(value)) isWhole = false;
  }
  if (isWhole && (maxSubmit - minSubmit + 1) * count < Number.MAX_SAFE_INTEGER) {
    // Whole seconds (the usual case): the offset itself is a dense enough rank.
    for (let i = 0; i < count; i += 1) packed[i] = (jobs[i]!.submitSec - minSubmit) * count + i;
  } else {
    const distinct = new Float64Array(count);
    for (let i = 0; i < count; i += 1) distinct[i] = jobs[i]!.submitSec;
    distinct.sort();
    let distinctCount = 0;
    for (let i = 0; i < count; i += 1) {
      if (i === 0 || distinct[i] !== distinct[distinctCount - 1]) {
        distinct[distinctCount] = distinct[i]!;
        distinctCount += 1;
      }
    }
    for (let i = 0; i < count; i += 1) {
      const value = jobs[i]!.submitSec;
      let low = 0;
      let high = distinctCount - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (distinct[middle]! < value) low = middle + 1;
        else high = middle;
      }
      packed[i] = low * count + i;
    }
  }
  packed.sort();
  const order = new Int32Array(count);
  for (let i = 0; i < count; i += 1) order[i] = packed[i]! % count;
  // Equal submit times: order by id (ids need not follow input positions). Runs of equal
  // times are usually short: insertion sort in place, a full sort for long runs.
  for (let start = 0; start < count;) {
    const boundary = (Math.floor(packed[start]! / count) + 1) * count;
    let end = start + 1;
    while (end < count && packed[end]! < boundary) end += 1;
    if (end - start > 16) {
      const run = Array.from(order.subarray(start, end));
      run.sort((a, b) => (jobs[a]!.id < jobs[b]!.id ? -1 : jobs[a]!.id > jobs[b]!.id ? 1 : a - b));
      order.set(run, start);
      start = end;
      continue;
    }
    for (let i = start + 1; i < end; i += 1) {
      const item = order[i]!;
      const id = jobs[item]!.id;
      let j = i - 1;
      while (j >= start && jobs[order[j]!]!.id > id) {
        order[j + 1] = order[j]!;
        j -= 1;
      }
      order[j + 1] = item;
    }
    start = end;
  }
  return order;
}

/** Stable counting sort of `order` by `key[item]` in [0, keyCount). */
function countingSort(order: Int32Array, key: Int32Array, keyCount: number): Int32Array {
  const starts = new Int32Array(keyCount + 1);
  for (let i = 0; i < order.length; i += 1) {
    const k = key[order[i]!]! + 1;
    starts[k] = starts[k]! + 1;
  }
  for (let k = 0; k < keyCount; k += 1) starts[k + 1] = starts[k + 1]! + starts[k]!;
  const sorted = new Int32Array(order.length);
  for (let i = 0; i < order.length; i += 1) {
    const item = order[i]!;
    const k = key[item]!;
    sorted[starts[k]!] = item;
    starts[k] = starts[k]! + 1;
  }
  return sorted;
}
