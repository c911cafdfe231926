import { compareSubmit, compareWithinBudget, PRIORITY_ORDER } from "./queue-order";
import { SHORT_MAX_RUNTIME_SEC } from "./short-jobs";
import type { PendingJob } from "./types";

// One budget's waiting jobs of one kind in a standing queue (`createStandingQueue`), kept in
// queue order as jobs come and go, with the bounds a pass reads instead of the jobs.

/** A job's slot in `BudgetLine.priorityCounts`. */
function priorityLevelOf(job: PendingJob): 0 | 1 | 2 | 3 {
  return (PRIORITY_ORDER[job.priority] as 0 | 1 | 2 | undefined) ?? 3;
}

/** Index at which `job` sits (or would sit) in `list`, sorted by `compare`. */
function searchSorted(
  list: readonly PendingJob[],
  job: PendingJob,
  compare: (a: PendingJob, b: PendingJob) => number,
): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compare(list[middle]!, job) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function insertSorted(
  list: PendingJob[],
  job: PendingJob,
  compare: (a: PendingJob, b: PendingJob) => number,
): void {
  const last = list[list.length - 1];
  if (last === undefined || compare(last, job) < 0) list.push(job);
  else list.splice(searchSorted(list, job, compare), 0, job);
}

function removeSorted(
  list: PendingJob[],
  job: PendingJob,
  compare: (a: PendingJob, b: PendingJob) => number,
): void {
  const at = searchSorted(list, job, compare);
  if (list[at] !== job) return;
  if (at < list.length / 2) {
    // Jobs leave from near the head: move the few before it, then drop the first, which V8
    // does without moving the rest (a splice moves everything after).
    for (let i = at; i > 0; i -= 1) list[i] = list[i - 1]!;
    list.shift();
  } else list.splice(at, 1);
}

/**
 * One budget's waiting jobs of one kind, in its own order (`compareWithinBudget`) and in submit
 * order (`compareSubmit`), both from `queue-order.ts`. While its jobs share one priority the two
 * orders are the same, and so is the array: one sorted insert and one sorted removal per job
 * instead of two (a trace without priorities, such as Philly, never has two lists).
 */
export type BudgetLine = {
  budgetId: string;
  byPriority: PendingJob[];
  /** `byPriority` itself while fewer than two priorities are queued. */
  bySubmit: PendingJob[];
  /** Jobs per priority (`PRIORITY_ORDER`; 3: a priority it does not know). */
  priorityCounts: [number, number, number, number];
  /** Jobs per size and per minimum runtime, and short-runtime jobs per size: the group bounds. */
  gpusCount: Map<number, number>;
  minRuntimeCount: Map<number, number>;
  shortGpusCount: Map<number, number>;
  /** The bounds, or null until read again after the last job of a smallest value left. */
  bounds: LineBounds | null;
};

export type LineBounds = { minGpus: number; minMinRuntimeSec: number; minShortGpus: number };

/** How many priorities a line holds jobs of. */
function priorityLevels(line: BudgetLine): number {
  let levels = 0;
  for (const count of line.priorityCounts) if (count > 0) levels += 1;
  return levels;
}

/** The line's group bounds, counted again only after the last job of a smallest value left. */
export function boundsOf(line: BudgetLine): LineBounds {
  if (line.bounds) return line.bounds;
  let minGpus = Number.POSITIVE_INFINITY;
  let minMinRuntimeSec = Number.POSITIVE_INFINITY;
  let minShortGpus = Number.POSITIVE_INFINITY;
  for (const gpus of line.gpusCount.keys()) if (gpus < minGpus) minGpus = gpus;
  for (const sec of line.minRuntimeCount.keys()) if (sec < minMinRuntimeSec) minMinRuntimeSec = sec;
  for (const gpus of line.shortGpusCount.keys()) if (gpus < minShortGpus) minShortGpus = gpus;
  return (line.bounds = { minGpus, minMinRuntimeSec, minShortGpus });
}

/** Counts one more (or, with -1, one fewer) of `key`; true when none is left. */
function count(counts: Map<number, number>, key: number, delta: 1 | -1): boolean {
  const left = (counts.get(key) ?? 0) + delta;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
  return left <= 0;
}

/** A budget line with no jobs yet. */
export function createBudgetLine(budgetId: string): BudgetLine {
  const byPriority: PendingJob[] = [];
  return {
    budgetId,
    byPriority,
    bySubmit: byPriority,
    priorityCounts: [0, 0, 0, 0],
    gpusCount: new Map(),
    minRuntimeCount: new Map(),
    shortGpusCount: new Map(),
    bounds: null,
  };
}

/** Puts `job` in its place in both of the line's orders and counts it in the bounds. */
export function addToLine(line: BudgetLine, job: PendingJob): void {
  const level = priorityLevelOf(job);
  line.priorityCounts[level] += 1;
  // A second priority: the submit order, until now the same, gets its own copy.
  const isNewLevel = line.priorityCounts[level] === 1;
  if (isNewLevel && line.bySubmit === line.byPriority && priorityLevels(line) > 1) {
    line.bySubmit = line.byPriority.slice();
  }
  insertSorted(line.byPriority, job, compareWithinBudget);
  if (line.bySubmit !== line.byPriority) insertSorted(line.bySubmit, job, compareSubmit);
  count(line.gpusCount, job.gpus, 1);
  count(line.minRuntimeCount, job.minRuntimeSec, 1);
  const isShort = job.minRuntimeSec <= SHORT_MAX_RUNTIME_SEC;
  if (isShort) count(line.shortGpusCount, job.gpus, 1);
  if (line.bounds) {
    line.bounds = {
      minGpus: Math.min(line.bounds.minGpus, job.gpus),
      minMinRuntimeSec: Math.min(line.bounds.minMinRuntimeSec, job.minRuntimeSec),
      minShortGpus: isShort
        ? Math.min(line.bounds.minShortGpus, job.gpus)
        : line.bounds.minShortGpus,
    };
  }
}

/** Takes `job` out of both of the line's orders and out of its bounds. */
export function removeFromLine(line: BudgetLine, job: PendingJob): void {
  removeSorted(line.byPriority, job, compareWithinBudget);
  if (line.bySubmit !== line.byPriority) removeSorted(line.bySubmit, job, compareSubmit);
  const level = priorityLevelOf(job);
  line.priorityCounts[level] -= 1;
  // One priority left: both orders are the same again.
  if (line.priorityCounts[level] === 0 && priorityLevels(line) < 2) {
    line.bySubmit = line.byPriority;
  }
  const isLastOfSize = count(line.gpusCount, job.gpus, -1);
  const isLastOfRuntime = count(line.minRuntimeCount, job.minRuntimeSec, -1);
  const isLastShortOfSize =
    job.minRuntimeSec <= SHORT_MAX_RUNTIME_SEC && count(line.shortGpusCount, job.gpus, -1);
  if (
    line.bounds &&
    ((isLastOfSize && job.gpus === line.bounds.minGpus) ||
      (isLastOfRuntime && job.minRuntimeSec === line.bounds.minMinRuntimeSec) ||
      (isLastShortOfSize && job.gpus === line.bounds.minShortGpus))
  ) {
    line.bounds = null;
  }
}
