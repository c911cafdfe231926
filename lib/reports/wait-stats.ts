import { percentile } from "../sim/hourly";

/** One job's queue wait: first start (or the period's end, if it never started) minus submit. */
export type JobWait = { budgetId: string; jobClass: string; waitSec: number };

/** Waits of one job class below one node. */
export type WaitSummary = { jobs: number; waitP50Sec: number; waitP90Sec: number };

/**
 * Queue wait percentiles (nearest rank, as the simulator's report) per tree node and job
 * class: a job counts for its leaf and for every ancestor of it. Jobs of budgets not in
 * `parentOf` count for their own id only.
 *
 * @param parentOf node id -> parent id (null for the root), removed nodes included
 * @example
 * summariseWaits(new Map([["root", null], ["a", "root"]]), [{ budgetId: "a", jobClass: "debug", waitSec: 60 }])
 * // { a: { debug: { jobs: 1, waitP50Sec: 60, waitP90Sec: 60 } }, root: { debug: { ... } } }
 */
export function summariseWaits(
  parentOf: ReadonlyMap<string, string | null>,
  jobs: readonly JobWait[],
): Record<string, Record<string, WaitSummary>> {
  const lists = new Map<string, Map<string, number[]>>();
  for (const job of jobs) {
    const seen = new Set<string>();
    for (let id: string | null = job.budgetId; id !== null && !seen.has(id);) {
      seen.add(id);
      const byClass = lists.get(id) ?? new Map<string, number[]>();
      lists.set(id, byClass);
      const list = byClass.get(job.jobClass) ?? [];
      byClass.set(job.jobClass, list);
      list.push(job.waitSec);
      id = parentOf.get(id) ?? null;
    }
  }
  const out: Record<string, Record<string, WaitSummary>> = {};
  for (const [id, byClass] of lists) {
    const summaries: Record<string, WaitSummary> = {};
    for (const jobClass of [...byClass.keys()].sort()) {
      const list = byClass.get(jobClass)!;
      summaries[jobClass] = {
        jobs: list.length,
        waitP50Sec: percentile(list, 0.5),
        waitP90Sec: percentile(list, 0.9),
      };
    }
    out[id] = summaries;
  }
  return out;
}

/**
 * Sums a per-leaf count (e.g. preemptions) up the tree: every node gets its subtree's total.
 *
 * @example rollUpCounts(new Map([["root", null], ["a", "root"]]), { a: 3 }) // { a: 3, root: 3 }
 */
export function rollUpCounts(
  parentOf: ReadonlyMap<string, string | null>,
  byLeaf: Readonly<Record<string, number>>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [leafId, count] of Object.entries(byLeaf)) {
    const seen = new Set<string>();
    for (let id: string | null = leafId; id !== null && !seen.has(id);) {
      seen.add(id);
      out[id] = (out[id] ?? 0) + count;
      id = parentOf.get(id) ?? null;
    }
  }
  return out;
}
