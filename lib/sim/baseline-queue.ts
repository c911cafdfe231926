import type { SimJob } from "./scenario";

/**
 * Jobs of the baseline queue that always succeed or fail together in a pass: same priority
 * level, GPUs, team and preemptibility. Sorted by submit time then id from `head` on.
 */
export type BaselineBucket = {
  level: number;
  gpus: number;
  team: string;
  isPreemptible: boolean;
  /** Team's cap on non-preemptible GPUs (Infinity when none). */
  cap: number;
  jobs: SimJob[];
  head: number;
};

function isEarlier(a: SimJob, b: SimJob): boolean {
  if (a.submitSec !== b.submitSec) return a.submitSec < b.submitSec;
  return a.id < b.id;
}

/** Queue order between bucket heads: higher level first, then submit time, then id. */
export function isBucketAhead(a: BaselineBucket, b: BaselineBucket): boolean {
  if (a.level !== b.level) return a.level > b.level;
  return isEarlier(a.jobs[a.head] as SimJob, b.jobs[b.head] as SimJob);
}

/** Inserts a job in its place (binary search; arrivals in submit order append at the end). */
export function insertIntoBucket(bucket: BaselineBucket, job: SimJob): void {
  let lo = bucket.head;
  let hi = bucket.jobs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (isEarlier(bucket.jobs[mid] as SimJob, job)) lo = mid + 1;
    else hi = mid;
  }
  if (lo === bucket.jobs.length) bucket.jobs.push(job);
  else bucket.jobs.splice(lo, 0, job);
}

/** Drops the started prefix once it is large, so the array does not grow without end. */
export function compactBucket(bucket: BaselineBucket): void {
  if (bucket.head > 1024 || (bucket.head > 0 && bucket.head * 2 >= bucket.jobs.length)) {
    bucket.jobs.splice(0, bucket.head);
    bucket.head = 0;
  }
}
