import { getBudgetNode } from "./budget-tree";
import { isAllocatedRun } from "./contract";
import { createJobScreen, screenPendingJobs } from "./pending-checks";
import {
  compareSubmit,
  compareWithinBudget,
  orderQueueIndices,
  PRIORITY_ORDER,
} from "./queue-order";
import { SHORT_MAX_RUNTIME_SEC } from "./short-jobs";
import { sortSmall } from "./sort-small";
import type { WaitDecision } from "./reasons";
import type { BudgetTree, ClusterSpec, PendingJob } from "./types";

/** A budget's leaf rank for the pass (1 = first). */
export type RankOf = (budgetId: string) => number;

/**
 * The jobs of one rank (one budget, or budgets tied on rank) in queue order, with bounds that
 * let a pass pass over the whole group without reading it.
 */
export type QueueGroup = {
  rank: number;
  /** No job of the group asks for fewer GPUs. */
  minGpus: number;
  /** No job of the group declares a shorter minimum runtime. */
  minMinRuntimeSec: number;
  /**
   * No job of the group with a minimum runtime of at most 15 minutes (a short job's, ADR 092)
   * asks for fewer GPUs; Infinity when it has none.
   */
  minShortGpus: number;
  /**
   * The group's next job, then undefined. Jobs asking for more than `maxGpus`, or screened out
   * by `backfill`, may be passed over (the walk moves on past them) or returned: a caller that
   * would pass over them anyway says so, and a long group costs a tight loop instead of a step
   * of the caller's.
   */
  next: (maxGpus?: number, backfill?: BackfillScreen) => PendingJob | undefined;
};

/**
 * Jobs a pass would pass over as backfill: those asking for `fromGpus` or more whose protection,
 * started at `nowSec`, would end after `untilSec`. Jobs asking for fewer are never screened.
 */
export type BackfillScreen = { fromGpus: number; nowSec: number; untilSec: number };

/** Whether `next` may pass over `job` (see `QueueGroup.next`). */
function isScreenedOut(job: PendingJob, maxGpus: number, backfill?: BackfillScreen): boolean {
  if (job.gpus > maxGpus) return true;
  return (
    backfill !== undefined &&
    job.gpus >= backfill.fromGpus &&
    backfill.nowSec + job.minRuntimeSec > backfill.untilSec
  );
}

/**
 * The waiting jobs of one pass, screened, in queue order (ADR 010, `orderQueue`), walked group
 * by group so a pass reads only the jobs that could start: a long queue costs what it reads.
 */
export type PendingQueue = {
  /** Jobs that can never start as submitted, in the order they were given. */
  readonly errors: readonly WaitDecision[];
  readonly allocatedCount: number;
  readonly unallocatedCount: number;
  /** No queued job asks for fewer GPUs (Infinity when none is queued). */
  readonly minGpus: number;
  /**
   * The groups of the allocated (or the unallocated) jobs in queue order under `rankOf`, ranks
   * ascending: each call returns the next group, then undefined. Each walk starts at the head.
   */
  walk(isAllocated: boolean, rankOf: RankOf): () => QueueGroup | undefined;
};

/** Splits jobs already in queue order into groups of equal rank. */
function groupsOf(jobs: readonly PendingJob[], rankOf: RankOf): () => QueueGroup | undefined {
  let start = 0;
  return () => {
    if (start >= jobs.length) return undefined;
    const rank = rankOf(jobs[start]!.budgetId);
    let end = start;
    let minGpus = Number.POSITIVE_INFINITY;
    let minMinRuntimeSec = Number.POSITIVE_INFINITY;
    let minShortGpus = Number.POSITIVE_INFINITY;
    while (end < jobs.length && rankOf(jobs[end]!.budgetId) === rank) {
      const job = jobs[end]!;
      minGpus = Math.min(minGpus, job.gpus);
      minMinRuntimeSec = Math.min(minMinRuntimeSec, job.minRuntimeSec);
      if (job.minRuntimeSec <= SHORT_MAX_RUNTIME_SEC)
        minShortGpus = Math.min(minShortGpus, job.gpus);
      end += 1;
    }
    let next = start;
    const stop = end;
    start = end;
    return {
      rank,
      minGpus,
      minMinRuntimeSec,
      minShortGpus,
      next: (maxGpus = Number.POSITIVE_INFINITY, backfill?: BackfillScreen) => {
        while (next < stop && isScreenedOut(jobs[next]!, maxGpus, backfill)) next += 1;
        return next < stop ? jobs[next++] : undefined;
      },
    };
  };
}

/**
 * The queue of a list of pending jobs, screened, and ordered by `orderQueueIndices` on the first
 * walk. What `runSchedulePass` builds when given an array.
 *
 * @example queueFromPending(pending, tree, cluster).walk(true, rankOf)()?.next()?.id
 */
export function queueFromPending(
  pending: readonly PendingJob[],
  tree: BudgetTree,
  cluster: ClusterSpec,
): PendingQueue {
  const { valid, errors } = screenPendingJobs(pending, tree, cluster);
  const isAllocated = new Uint8Array(valid.length);
  const shareByBudget = new Map<string, number>();
  let allocatedCount = 0;
  let minGpus = Number.POSITIVE_INFINITY;
  valid.forEach((job, i) => {
    let share = shareByBudget.get(job.budgetId);
    if (share === undefined) {
      share = getBudgetNode(tree, job.budgetId)?.effectiveShare ?? 0;
      shareByBudget.set(job.budgetId, share);
    }
    isAllocated[i] = isAllocatedRun(job.minRuntimeSec, share) ? 1 : 0;
    allocatedCount += isAllocated[i]!;
    minGpus = Math.min(minGpus, job.gpus);
  });
  let ordered: { rankOf: RankOf; jobs: PendingJob[] } | null = null;
  return {
    errors,
    allocatedCount,
    unallocatedCount: valid.length - allocatedCount,
    minGpus,
    walk(kind, rankOf) {
      if (ordered?.rankOf !== rankOf) {
        const order = orderQueueIndices(valid, rankOf, (_, i) => isAllocated[i] === 1);
        ordered = { rankOf, jobs: Array.from(order, (i) => valid[i]!) };
      }
      // Allocated jobs come first in the order.
      const { jobs } = ordered;
      return groupsOf(kind ? jobs.slice(0, allocatedCount) : jobs.slice(allocatedCount), rankOf);
    },
  };
}

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
type BudgetLine = {
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

type LineBounds = { minGpus: number; minMinRuntimeSec: number; minShortGpus: number };

/** How many priorities a line holds jobs of. */
function priorityLevels(line: BudgetLine): number {
  let levels = 0;
  for (const count of line.priorityCounts) if (count > 0) levels += 1;
  return levels;
}

function boundsOf(line: BudgetLine): LineBounds {
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

/**
 * The group of one budget line alone, the usual case: one object per group read, its `next` on
 * the prototype. It passes over the jobs `QueueGroup.next` lets it.
 */
class LineGroup implements QueueGroup {
  #at = 0;

  constructor(
    readonly rank: number,
    readonly minGpus: number,
    readonly minMinRuntimeSec: number,
    readonly minShortGpus: number,
    private readonly jobs: readonly PendingJob[],
  ) {}

  next(maxGpus = Number.POSITIVE_INFINITY, backfill?: BackfillScreen): PendingJob | undefined {
    const { jobs } = this;
    while (this.#at < jobs.length && isScreenedOut(jobs[this.#at]!, maxGpus, backfill)) {
      this.#at += 1;
    }
    return jobs[this.#at++];
  }
}

/**
 * The next job of tied lines, as `orderQueue` orders budgets tied on rank: places in submit
 * order (`compareSubmit`), each taken by its line's next job. One line passes over the jobs
 * `QueueGroup.next` lets it; tied lines return every job.
 */
function mergeTied(lines: readonly BudgetLine[]): QueueGroup["next"] {
  if (lines.length === 1) {
    const jobs = lines[0]!.byPriority;
    let next = 0;
    return (maxGpus = Number.POSITIVE_INFINITY, backfill?: BackfillScreen) => {
      while (next < jobs.length && isScreenedOut(jobs[next]!, maxGpus, backfill)) next += 1;
      return jobs[next++];
    };
  }
  const taken = lines.map(() => 0);
  return () => {
    let owner = -1;
    for (let i = 0; i < lines.length; i += 1) {
      const place = lines[i]!.bySubmit[taken[i]!];
      if (
        place &&
        (owner < 0 || compareSubmit(place, lines[owner]!.bySubmit[taken[owner]!]!) < 0)
      ) {
        owner = i;
      }
    }
    if (owner < 0) return undefined;
    const job = lines[owner]!.byPriority[taken[owner]!];
    taken[owner] = taken[owner]! + 1;
    return job;
  };
}

/** A queue kept from pass to pass: jobs are added as they arrive and removed as they start. */
export type StandingQueue = PendingQueue & {
  /** Queues a job (screened once, here). Throws if a job of the same id is queued. */
  add(job: PendingJob): void;
  /** Takes a job out of the queue; no-op for an unknown id. */
  remove(jobId: string): void;
  /** Jobs queued, errors included. */
  readonly size: number;
  /**
   * The best (lowest) rank under `rankOf` of the budgets with jobs of this kind queued; Infinity
   * when none is. O(budgets); walks keep their order.
   */
  bestRank(isAllocated: boolean, rankOf: RankOf): number;
  /** Whether a job is queued as allocated: false for unallocated, unknown and error jobs. */
  isAllocated(jobId: string): boolean;
};

/**
 * A pending queue that lives across passes, for callers that see the queue change by small
 * deltas (the simulator, ADR 012). Jobs are kept per budget and kind in the order `orderQueue`
 * defines (`compareWithinBudget`), so a walk merges budgets by rank instead of sorting the whole
 * queue, and a pass passes over a budget none of whose jobs could start without reading it.
 * Walks give exactly the order of `orderQueueIndices` over the same jobs, ties between budgets
 * included (property-tested). The jobs given are kept as they are: do not mutate them while queued.
 *
 * @example
 * const queue = createStandingQueue(tree, cluster);
 * queue.add(job);
 * runSchedulePass({ cluster, nowSec, tree, leafUsage, runs, pending: queue });
 */
export function createStandingQueue(tree: BudgetTree, cluster: ClusterSpec): StandingQueue {
  const screen = createJobScreen(tree, cluster);
  const errors = new Map<string, WaitDecision>();
  let errorList: WaitDecision[] | null = [];
  // Per kind (0 unallocated, 1 allocated): budget id -> line.
  const lines = [new Map<string, BudgetLine>(), new Map<string, BudgetLine>()];
  const queued = new Map<string, { job: PendingJob; line: BudgetLine; kind: number }>();
  const countByKind = [0, 0];
  const countByGpus = new Map<number, number>();
  let minGpus: number | null = Number.POSITIVE_INFINITY;
  const shareByBudget = new Map<string, number>();
  // Per kind: the lines with jobs in rank order, as the last walk sorted them, kept while the
  // walks rank with the same `rankOf` and no line has emptied or filled (`linesChanged`).
  const orders: (LineOrder | null)[] = [null, null];
  const linesChanged = [0, 0];

  const add = (job: PendingJob): void => {
    if (queued.has(job.id) || errors.has(job.id)) {
      throw new Error(`Job "${job.id}" is already queued.`);
    }
    const error = screen(job);
    if (error) {
      errors.set(job.id, error);
      errorList = null;
      return;
    }
    let share = shareByBudget.get(job.budgetId);
    if (share === undefined) {
      share = getBudgetNode(tree, job.budgetId)?.effectiveShare ?? 0;
      shareByBudget.set(job.budgetId, share);
    }
    const kind = isAllocatedRun(job.minRuntimeSec, share) ? 1 : 0;
    let line = lines[kind]!.get(job.budgetId);
    if (!line) {
      line = createBudgetLine(job.budgetId);
      lines[kind]!.set(job.budgetId, line);
    }
    addToLine(line, job);
    if (line.byPriority.length === 1) linesChanged[kind] = linesChanged[kind]! + 1;
    queued.set(job.id, { job, line, kind });
    countByKind[kind] = countByKind[kind]! + 1;
    countByGpus.set(job.gpus, (countByGpus.get(job.gpus) ?? 0) + 1);
    if (minGpus !== null && job.gpus < minGpus) minGpus = job.gpus;
  };

  const remove = (jobId: string): void => {
    if (errors.delete(jobId)) {
      errorList = null;
      return;
    }
    const entry = queued.get(jobId);
    if (!entry) return;
    const { job, line } = entry;
    queued.delete(jobId);
    removeFromLine(line, job);
    if (line.byPriority.length === 0) linesChanged[entry.kind] = linesChanged[entry.kind]! + 1;
    countByKind[entry.kind] = countByKind[entry.kind]! - 1;
    const left = countByGpus.get(job.gpus)! - 1;
    if (left > 0) countByGpus.set(job.gpus, left);
    else {
      countByGpus.delete(job.gpus);
      if (job.gpus === minGpus) minGpus = null;
    }
  };

  const walk = (isAllocated: boolean, rankOf: RankOf): (() => QueueGroup | undefined) => {
    const kind = isAllocated ? 1 : 0;
    let order = orders[kind];
    if (order?.rankOf !== rankOf || order.version !== linesChanged[kind]) {
      order = rankLines(lines[kind]!.values(), rankOf, linesChanged[kind]!);
      orders[kind] = order;
    }
    return groupsOfLines(order);
  };

  return {
    get errors() {
      return (errorList ??= [...errors.values()]);
    },
    get allocatedCount() {
      return countByKind[1]!;
    },
    get unallocatedCount() {
      return countByKind[0]!;
    },
    get minGpus() {
      minGpus ??= countByGpus.size === 0 ? Infinity : Math.min(...countByGpus.keys());
      return minGpus;
    },
    get size() {
      return queued.size + errors.size;
    },
    walk,
    add,
    remove,
    bestRank(isAllocated, rankOf) {
      let best = Number.POSITIVE_INFINITY;
      for (const line of lines[isAllocated ? 1 : 0]!.values()) {
        if (line.byPriority.length > 0) best = Math.min(best, rankOf(line.budgetId));
      }
      return best;
    },
    isAllocated: (jobId) => queued.get(jobId)?.kind === 1,
  };
}

/** A budget line with no jobs yet. */
function createBudgetLine(budgetId: string): BudgetLine {
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
function addToLine(line: BudgetLine, job: PendingJob): void {
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
function removeFromLine(line: BudgetLine, job: PendingJob): void {
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

/** The lines of one kind with jobs, in rank order, as a walk sorted them (see `rankLines`). */
type LineOrder = {
  rankOf: RankOf;
  /** The count of lines emptied or filled when sorted: sorted again once it moves. */
  version: number;
  ranked: { line: BudgetLine; rank: number }[];
  /** The lines of each run of ties in `ranked`, by the index it starts at, listed when read. */
  tiedFrom: BudgetLine[][];
};

/** The lines that hold jobs, sorted by rank under `rankOf` (stable: ties keep their order). */
function rankLines(lines: Iterable<BudgetLine>, rankOf: RankOf, version: number): LineOrder {
  const ranked: { line: BudgetLine; rank: number }[] = [];
  for (const line of lines) {
    if (line.byPriority.length > 0) ranked.push({ line, rank: rankOf(line.budgetId) });
  }
  sortSmall(ranked, (a, b) => a.rank - b.rank);
  return { rankOf, version, ranked, tiedFrom: [] };
}

/**
 * The groups of a walk over ranked lines: a line alone (`LineGroup`), or lines tied in rank
 * merged (`mergeTied`); each call returns the next group, then undefined.
 */
function groupsOfLines(order: LineOrder): () => QueueGroup | undefined {
  const { ranked } = order;
  let start = 0;
  return () => {
    if (start >= ranked.length) return undefined;
    const rank = ranked[start]!.rank;
    let end = start + 1;
    while (end < ranked.length && ranked[end]!.rank === rank) end += 1;
    if (end === start + 1) {
      const { line } = ranked[start]!;
      start = end;
      const bounds = boundsOf(line);
      return new LineGroup(
        rank,
        bounds.minGpus,
        bounds.minMinRuntimeSec,
        bounds.minShortGpus,
        line.byPriority,
      );
    }
    // Lines tied in rank: listed once per order, not per walk.
    const tied = (order.tiedFrom[start] ??= ranked.slice(start, end).map(({ line }) => line));
    start = end;
    let groupMinGpus = Number.POSITIVE_INFINITY;
    let groupMinRuntimeSec = Number.POSITIVE_INFINITY;
    let groupMinShortGpus = Number.POSITIVE_INFINITY;
    for (const line of tied) {
      const bounds = boundsOf(line);
      groupMinGpus = Math.min(groupMinGpus, bounds.minGpus);
      groupMinRuntimeSec = Math.min(groupMinRuntimeSec, bounds.minMinRuntimeSec);
      groupMinShortGpus = Math.min(groupMinShortGpus, bounds.minShortGpus);
    }
    return {
      rank,
      minGpus: groupMinGpus,
      minMinRuntimeSec: groupMinRuntimeSec,
      minShortGpus: groupMinShortGpus,
      next: mergeTied(tied),
    };
  };
}

/** Whether the pass input is a queue rather than a list of jobs. */
export function isPendingQueue(
  pending: readonly PendingJob[] | PendingQueue,
): pending is PendingQueue {
  return !Array.isArray(pending);
}
