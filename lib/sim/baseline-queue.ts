import type { Priority } from "../engine/types";
import type { SimJob } from "./scenario";

/** Baseline priority levels, lowest first. */
export const PRIORITY_LEVEL: Record<Priority, number> = { low: 0, normal: 1, high: 2 };

/**
 * A top-level team of the baseline, per cluster: its cap on GPUs held by non-preemptible runs
 * (Infinity when none), the GPUs they hold now, and its buckets.
 */
export type BaselineTeam = {
  name: string;
  capGpus: number;
  heldGpus: number;
  buckets: Map<number, BaselineBucket>;
};

/**
 * Jobs of the baseline queue that always succeed or fail together in a pass: same priority
 * level, GPUs, team and preemptibility. Sorted by submit time then id from `head` on.
 */
export type BaselineBucket = {
  level: number;
  gpus: number;
  team: BaselineTeam;
  isPreemptible: boolean;
  jobs: SimJob[];
  head: number;
  /** The head job's submit time and id, the keys of the queue order (Infinity when empty). */
  headSubmitSec: number;
  headId: string;
  /** Whether the bucket is in the queue's list of non-empty buckets. */
  isListed: boolean;
};

/**
 * The baseline's queue on one cluster: jobs in buckets, and the non-empty buckets in queue order
 * (higher level first, then the head's submit time, then its id) for a pass to walk.
 *
 * Speed: the list of buckets is kept from pass to pass, so sorting it at the start of a pass
 * (insertion sort) costs about one comparison per bucket; a bucket whose head starts moves back
 * to its place. A pass costs O(buckets + starts x buckets), and comparisons read the keys cached
 * in the bucket, not the jobs.
 *
 * @example
 * const queue = createBaselineQueue({ llm: 64 });
 * queue.add(job);
 * queue.beginWalk();
 * const bucket = queue.next(); // the bucket of the first job in queue order
 * queue.takeHead(bucket); // job; the bucket comes again later if it has more
 */
export type BaselineQueue = {
  /** The team a job's budget belongs to (its top-level node). */
  teamOf(job: SimJob): BaselineTeam;
  /** Adds a job (an arrival or a requeued job) to its bucket. */
  add(job: SimJob): void;
  /** Starts a walk over the non-empty buckets in queue order. */
  beginWalk(): void;
  /** The next bucket of the walk, or undefined at its end. */
  next(): BaselineBucket | undefined;
  /**
   * Removes and returns the head job of the bucket `next` returned last; the bucket comes again
   * later in the walk, at its new place, while it has jobs.
   */
  takeHead(bucket: BaselineBucket): SimJob;
  /** Ends the walk (drops the started prefix of large buckets). */
  endWalk(): void;
};

function isEarlier(a: SimJob, b: SimJob): boolean {
  if (a.submitSec !== b.submitSec) return a.submitSec < b.submitSec;
  return a.id < b.id;
}

/** Queue order between bucket heads: higher level first, then submit time, then id. */
function isBucketAhead(a: BaselineBucket, b: BaselineBucket): boolean {
  if (a.level !== b.level) return a.level > b.level;
  if (a.headSubmitSec !== b.headSubmitSec) return a.headSubmitSec < b.headSubmitSec;
  return a.headId < b.headId;
}

function refreshHead(bucket: BaselineBucket): void {
  const job = bucket.jobs[bucket.head];
  bucket.headSubmitSec = job?.submitSec ?? Infinity;
  bucket.headId = job?.id ?? "";
}

/** Inserts a job in its place (binary search; arrivals in submit order append at the end). */
function insertIntoBucket(bucket: BaselineBucket, job: SimJob): void {
  let lo = bucket.head;
  let hi = bucket.jobs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (isEarlier(bucket.jobs[mid] as SimJob, job)) lo = mid + 1;
    else hi = mid;
  }
  if (lo === bucket.jobs.length) bucket.jobs.push(job);
  else bucket.jobs.splice(lo, 0, job);
  if (lo === bucket.head) refreshHead(bucket);
}

/** Drops the started prefix once it is large, so the array does not grow without end. */
function compactBucket(bucket: BaselineBucket): void {
  if (bucket.head > 1024 || (bucket.head > 0 && bucket.head * 2 >= bucket.jobs.length)) {
    bucket.jobs.splice(0, bucket.head);
    bucket.head = 0;
  }
}

function nameTeam(budgetId: string): string {
  const slash = budgetId.indexOf("/");
  return slash < 0 ? budgetId : budgetId.slice(0, slash);
}

/**
 * Creates an empty {@link BaselineQueue}; `capByTeam` is the scenario's cap on non-preemptible
 * GPUs by top-level team name.
 */
export function createBaselineQueue(capByTeam: Readonly<Record<string, number>>): BaselineQueue {
  const teamsByBudget = new Map<string, BaselineTeam>();
  const teamsByName = new Map<string, BaselineTeam>();
  // Non-empty buckets in queue order as of the last walk; later additions sort in at the next.
  const listed: BaselineBucket[] = [];
  let cursor = 0;
  const touched: BaselineBucket[] = [];

  function teamOf(job: SimJob): BaselineTeam {
    let team = teamsByBudget.get(job.budgetId);
    if (team) return team;
    const name = nameTeam(job.budgetId);
    team = teamsByName.get(name) ?? {
      name,
      capGpus: capByTeam[name] ?? Infinity,
      heldGpus: 0,
      buckets: new Map(),
    };
    teamsByName.set(name, team);
    teamsByBudget.set(job.budgetId, team);
    return team;
  }

  function bucketOf(job: SimJob): BaselineBucket {
    const team = teamOf(job);
    const level = PRIORITY_LEVEL[job.baselinePriority];
    const key = (job.gpus * 3 + level) * 2 + (job.isBaselinePreemptible ? 1 : 0);
    let bucket = team.buckets.get(key);
    if (!bucket) {
      bucket = {
        level,
        gpus: job.gpus,
        team,
        isPreemptible: job.isBaselinePreemptible,
        jobs: [],
        head: 0,
        headSubmitSec: Infinity,
        headId: "",
        isListed: false,
      };
      team.buckets.set(key, bucket);
    }
    return bucket;
  }

  return {
    teamOf,
    add(job) {
      const bucket = bucketOf(job);
      insertIntoBucket(bucket, job);
      if (!bucket.isListed) {
        bucket.isListed = true;
        listed.push(bucket);
      }
    },
    beginWalk() {
      for (let i = 1; i < listed.length; i++) {
        const bucket = listed[i] as BaselineBucket;
        let j = i;
        for (; j > 0 && isBucketAhead(bucket, listed[j - 1] as BaselineBucket); j--) {
          listed[j] = listed[j - 1] as BaselineBucket;
        }
        listed[j] = bucket;
      }
      cursor = 0;
    },
    next() {
      return listed[cursor++];
    },
    takeHead(bucket) {
      const at = cursor - 1;
      if (listed[at] !== bucket) throw new Error("baseline queue: takeHead of another bucket");
      const job = bucket.jobs[bucket.head++] as SimJob;
      refreshHead(bucket);
      touched.push(bucket);
      if (bucket.head === bucket.jobs.length) {
        bucket.isListed = false;
        listed.splice(at, 1);
      } else {
        // Its next job comes later in queue order: move it back past the buckets now ahead.
        let j = at;
        for (
          ;
          j + 1 < listed.length && isBucketAhead(listed[j + 1] as BaselineBucket, bucket);
          j++
        ) {
          listed[j] = listed[j + 1] as BaselineBucket;
        }
        listed[j] = bucket;
      }
      cursor = at;
      return job;
    },
    endWalk() {
      // A bucket listed twice is compacted once: the second call finds nothing started.
      for (const bucket of touched) compactBucket(bucket);
      touched.length = 0;
    },
  };
}
