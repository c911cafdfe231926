import type { Priority } from "./types";

const PRIORITY_ORDER: Record<Priority, number> = { high: 0, normal: 1, low: 2 };

/** What ordering needs of a pending job. */
export type QueueEntry = {
  id: string;
  budgetId: string;
  priority: Priority;
  submitSec: number;
};

/**
 * Orders pending jobs (DESIGN section 4, ADR 010): allocated before unallocated, then leaf rank,
 * then priority, then submit time, then id.
 *
 * Priority orders jobs only within the same budget (DESIGN section 2). Budgets usually have
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
  const count = jobs.length;
  const group = new Float64Array(count);
  const budget = new Int32Array(count);
  const priority = new Int8Array(count);
  const submit = new Float64Array(count);
  const budgetNumbers = new Map<string, number>();
  const rankCache = new Map<string, number>();
  for (let i = 0; i < count; i += 1) {
    const job = jobs[i]!;
    let rank = rankCache.get(job.budgetId);
    if (rank === undefined) {
      rank = rankOf(job.budgetId);
      rankCache.set(job.budgetId, rank);
    }
    // Unallocated jobs follow every allocated one: shift them past any rank.
    group[i] = isAllocated(job) ? rank : rank + 2 ** 40;
    let number = budgetNumbers.get(job.budgetId);
    if (number === undefined) {
      number = budgetNumbers.size;
      budgetNumbers.set(job.budgetId, number);
    }
    budget[i] = number;
    priority[i] = PRIORITY_ORDER[job.priority];
    submit[i] = job.submitSec;
  }
  const compareIds = (a: number, b: number): number => {
    const idA = jobs[a]!.id;
    const idB = jobs[b]!.id;
    return idA < idB ? -1 : idA > idB ? 1 : a - b;
  };
  // Budget numbers follow first appearance, so order budgets by id for determinism.
  const budgetIds = [...budgetNumbers.keys()].sort();
  const budgetOrder = new Int32Array(budgetIds.length);
  budgetIds.forEach((id, order) => (budgetOrder[budgetNumbers.get(id)!] = order));

  const byBudget = Array.from({ length: count }, (_, i) => i);
  byBudget.sort(
    (a, b) =>
      group[a]! - group[b]! ||
      budgetOrder[budget[a]!]! - budgetOrder[budget[b]!]! ||
      priority[a]! - priority[b]! ||
      submit[a]! - submit[b]! ||
      compareIds(a, b),
  );
  let hasTiedBudgets = false;
  for (let i = 1; i < count && !hasTiedBudgets; i += 1) {
    const a = byBudget[i - 1]!;
    const b = byBudget[i]!;
    hasTiedBudgets = group[a] === group[b] && budget[a] !== budget[b];
  }
  if (!hasTiedBudgets) return byBudget.map((i) => jobs[i]!);

  // Places of a tie group in submit order; each place goes to its budget's next job.
  const places = Array.from({ length: count }, (_, i) => i);
  places.sort((a, b) => group[a]! - group[b]! || submit[a]! - submit[b]! || compareIds(a, b));
  const nextOfBudget = new Map<string, number>();
  const startOfBudget = new Int32Array(count);
  for (let i = 0; i < count; i += 1) {
    const job = byBudget[i]!;
    const key = `${group[job]}|${budget[job]}`;
    if (!nextOfBudget.has(key)) nextOfBudget.set(key, i);
    startOfBudget[job] = nextOfBudget.get(key)!;
  }
  const cursor = new Map<string, number>();
  return places.map((place) => {
    const key = `${group[place]}|${budget[place]}`;
    const at = cursor.get(key) ?? startOfBudget[place]!;
    cursor.set(key, at + 1);
    return jobs[byBudget[at]!]!;
  });
}
