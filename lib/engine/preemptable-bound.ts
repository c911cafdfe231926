import type { ClusterState } from "./cluster-state";
import type { Holdings } from "./holdings";
import { guardedPreemptableGpus } from "./preemptable-totals";
import type { PendingJob } from "./types";

/**
 * The GPUs preemption could free for `job` of rank `jobRank`, at most (see
 * `createPreemptableBound`); with standing totals, counting may stop at `enoughGpus`.
 */
export type PreemptableBound = (job: PendingJob, jobRank: number, enoughGpus: number) => number;

/**
 * An upper bound on the GPUs of healthy nodes that preemption could free for a job: those of
 * unprotected runs that are unallocated, or of a budget ranked below the job's that the share
 * guard lets it preempt on the holdings of the moment. Runs are taken as loaded: preemptions
 * and starts since only lower the truth. With standing totals, runs are taken as standing, before
 * this pass's down-node and drain ends, and GPUs on down or draining nodes count too: the bound
 * only grows. Grouped by budget and run size, so a query costs O(budgets x sizes) instead of a
 * walk over every victim. With standing totals, counting stops once it reaches `enoughGpus` (all
 * the caller compares it with).
 *
 * @example const preemptableGpus = createPreemptableBound(loaded, holdings, nodeOfSlot)
 */
export function createPreemptableBound(
  state: ClusterState,
  holdings: Holdings,
  nodeOfSlot: (slot: number) => number,
): PreemptableBound {
  type Group = { budgetId: string; rank: number; gpus: number; usable: number };
  // Built on the first query: most passes place or give up before any plan.
  let unallocatedGpus = 0;
  let byRank: Group[] | null = null;
  const build = (): Group[] => {
    const { live, pool } = state;
    // Groups per budget slot, few sizes each: a short list beats a map.
    const bySlot: (Group[] | undefined)[] = [];
    const list: Group[] = [];
    for (const entry of live) {
      if (entry.isGone || entry.isProtectedNow) continue;
      let usable = 0;
      for (const slice of entry.slices) if (pool.isUsable[slice.position]) usable += slice.gpus;
      if (usable === 0) continue;
      if (!entry.isAllocated) {
        unallocatedGpus += usable;
        continue;
      }
      let groups = bySlot[entry.budgetSlot];
      if (!groups) {
        groups = [];
        bySlot[entry.budgetSlot] = groups;
      }
      let group: Group | undefined;
      for (let i = 0; i < groups.length && !group; i += 1) {
        if (groups[i]!.gpus === entry.gpus) group = groups[i];
      }
      if (group) group.usable += usable;
      else {
        group = { budgetId: entry.budgetId, rank: entry.rank, gpus: entry.gpus, usable };
        groups.push(group);
        list.push(group);
      }
    }
    return list.sort((a, b) => b.rank - a.rank);
  };
  const totals = state.preemptable;
  if (totals) {
    const rankOfSlot = (slot: number): number => state.rankBySlot[slot]!;
    return (job, jobRank, enoughGpus) =>
      guardedPreemptableGpus(
        totals,
        { node: holdings.nodeIndexOf(job.budgetId), gpus: job.gpus, rank: jobRank },
        holdings,
        rankOfSlot,
        nodeOfSlot,
        enoughGpus,
      );
  }
  return (job, jobRank) => {
    byRank ??= build();
    let total = unallocatedGpus;
    for (const group of byRank!) {
      if (group.rank <= jobRank) break;
      if (holdings.mayPreempt(job.budgetId, group.budgetId, job.gpus, group.gpus)) {
        total += group.usable;
      }
    }
    return total;
  };
}
