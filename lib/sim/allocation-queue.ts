import type { PendingJob, Priority } from "../engine/types";

const PRIORITY_ORDER: Record<Priority, number> = { high: 0, normal: 1, low: 2 };

/** Pending jobs of one budget with the same GPUs and allocated-ness, in the engine's order. */
type Group = { budgetId: string; gpus: number; hasMinRuntime: boolean; jobs: PendingJob[] };

/** Whether the engine treats a budget's jobs as allocated (min runtime above 0 and a share). */
export type AllocatedTest = (budgetId: string, hasMinRuntime: boolean) => boolean;

/** The jobs handed to one pass, and whether an allocated job was left out. */
export type QueueSelection = { jobs: PendingJob[]; hasAllocatedLeftOut: boolean };

// Within one budget the engine orders by priority, then submit time, then id.
function isAhead(a: PendingJob, b: PendingJob): boolean {
  const pa = PRIORITY_ORDER[a.priority];
  const pb = PRIORITY_ORDER[b.priority];
  if (pa !== pb) return pa < pb;
  if (a.submitSec !== b.submitSec) return a.submitSec < b.submitSec;
  return a.id < b.id;
}

/**
 * The allocation scheduler's view of its queue, kept between passes: pending jobs grouped by
 * (budget, allocated or not, GPUs), each group in the engine's order. `select` hands the engine
 * only the head of each group that could matter in one pass.
 *
 * Why that is safe: a job of a group can only start on GPUs that are free or that its budget
 * may preempt (`capacityOf(budget)`), and runs started in a pass are not preempted in it, so at
 * most floor(capacity / gpus) jobs of a group start; the next one is where the group first
 * fails (which sets the engine's reservation and skip rules). Later ones cannot start in that
 * pass, except that an identical job of the same budget may take the place of an earlier one
 * after a mid-pass preemption (a tie the engine may resolve either way).
 */
export type AllocationQueue = {
  add(job: PendingJob): void;
  remove(jobId: string): void;
  /** The heads worth a pass, given the GPUs each budget could get now at most. */
  select(capacityOf: (budgetId: string) => number, isAllocated: AllocatedTest): QueueSelection;
  /** Whether any pending job is allocated. */
  hasAllocated(isAllocated: AllocatedTest): boolean;
  readonly size: number;
};

/** Creates an empty {@link AllocationQueue}. */
export function createAllocationQueue(): AllocationQueue {
  const groups = new Map<string, Group>();
  const groupOfJob = new Map<string, Group>();
  return {
    add(job) {
      const hasMinRuntime = job.minRuntimeSec > 0;
      const key = `${job.budgetId}\u0000${hasMinRuntime ? 1 : 0}\u0000${job.gpus}`;
      let group = groups.get(key);
      if (!group) {
        group = { budgetId: job.budgetId, gpus: job.gpus, hasMinRuntime, jobs: [] };
        groups.set(key, group);
      }
      let lo = 0;
      let hi = group.jobs.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (isAhead(group.jobs[mid] as PendingJob, job)) lo = mid + 1;
        else hi = mid;
      }
      if (lo === group.jobs.length) group.jobs.push(job);
      else group.jobs.splice(lo, 0, job);
      groupOfJob.set(job.id, group);
    },
    remove(jobId) {
      const group = groupOfJob.get(jobId);
      if (!group) return;
      groupOfJob.delete(jobId);
      const index = group.jobs.findIndex((job) => job.id === jobId);
      if (index >= 0) group.jobs.splice(index, 1);
    },
    select(capacityOf, isAllocated) {
      const jobs: PendingJob[] = [];
      let hasAllocatedLeftOut = false;
      for (const group of groups.values()) {
        const count = Math.min(
          group.jobs.length,
          Math.floor(capacityOf(group.budgetId) / group.gpus) + 1,
        );
        for (let i = 0; i < count; i++) jobs.push(group.jobs[i] as PendingJob);
        if (count < group.jobs.length && isAllocated(group.budgetId, group.hasMinRuntime)) {
          hasAllocatedLeftOut = true;
        }
      }
      return { jobs, hasAllocatedLeftOut };
    },
    hasAllocated(isAllocated) {
      for (const group of groups.values()) {
        if (group.jobs.length > 0 && isAllocated(group.budgetId, group.hasMinRuntime)) return true;
      }
      return false;
    },
    get size() {
      return groupOfJob.size;
    },
  };
}
