import { getBudgetNode } from "./budget-tree";
import {
  addToLine,
  boundsOf,
  createBudgetLine,
  removeFromLine,
  type BudgetLine,
} from "./budget-line";
import { isAllocatedRun } from "./contract";
import { createJobScreen } from "./pending-checks";
import {
  isScreenedOut,
  type BackfillScreen,
  type PendingQueue,
  type QueueGroup,
  type RankOf,
} from "./pending-queue";
import { compareSubmit } from "./queue-order";
import { sortSmall } from "./sort-small";
import type { WaitDecision } from "./reasons";
import type { BudgetTree, ClusterSpec, PendingJob } from "./types";

// The queue an `IncrementalScheduler` keeps from pass to pass (ADR 012): budget lines merged
// by rank at each walk.

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
 * Internal to the engine: an `IncrementalScheduler` keeps one.
 *
 * @example
 * const queue = createStandingQueue(tree, cluster);
 * queue.add(job);
 * runFastPass({ ...input, queue });
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
