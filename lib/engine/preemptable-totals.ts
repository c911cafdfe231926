import type { LiveRun } from "./live-run";
import type { Holdings } from "./holdings";

/**
 * GPUs that preemption could free, as standing runs count them: unallocated runs, and
 * unprotected allocated runs per budget slot and run size. Every GPU of a run counts, those on
 * down or draining nodes too: an upper bound there, where a pass checks the runs themselves.
 */
export type PreemptableTotals = {
  unallocatedGpus: number;
  /**
   * Per budget slot (`LiveRun.budgetSlot`): run sizes and the GPUs of unprotected allocated runs
   * of each (parallel lists, a size kept once seen; plain arrays, read in tight loops).
   */
  bySlot: ({ sizes: number[]; gpus: number[] } | undefined)[];
  /** The runs counted: unallocated ones, and unprotected allocated ones per budget slot. */
  unallocatedRuns: Set<LiveRun>;
  runsBySlot: (Set<LiveRun> | undefined)[];
};

const emptyTotals = (): PreemptableTotals => ({
  unallocatedGpus: 0,
  bySlot: [],
  unallocatedRuns: new Set(),
  runsBySlot: [],
});

/**
 * The GPUs preemption could free for an allocated job, on the totals: those of unallocated runs,
 * and of unprotected runs of budgets ranked below the job's (`rankOfSlot` > `jobRank`) that the
 * share guard on `holdings` lets it preempt, asked once per budget and run size. Counting stops
 * once it reaches `enoughGpus`, for callers that only compare it with that: the count then is at
 * least `enoughGpus`, not all.
 */
export function guardedPreemptableGpus(
  totals: PreemptableTotals,
  job: { node: number; gpus: number; rank: number },
  holdings: Holdings,
  rankOfSlot: (slot: number) => number,
  nodeOfSlot: (slot: number) => number,
  enoughGpus = Number.POSITIVE_INFINITY,
): number {
  let total = totals.unallocatedGpus;
  for (let slot = 0; slot < totals.bySlot.length && total < enoughGpus; slot += 1) {
    const bySize = totals.bySlot[slot];
    if (!bySize || rankOfSlot(slot) <= job.rank) continue;
    for (let at = 0; at < bySize.sizes.length; at += 1) {
      const usable = bySize.gpus[at]!;
      const gpus = bySize.sizes[at]!;
      if (usable > 0 && holdings.mayPreemptAt(job.node, nodeOfSlot(slot), job.gpus, gpus)) {
        total += usable;
      }
    }
  }
  return total;
}

/**
 * The GPUs preemption could free for an allocated job that the share guard does not screen (a
 * short job, ADR 092), on the totals: those of unallocated runs, and of unprotected runs of
 * budgets ranked below `jobRank`.
 */
export function preemptableGpus(
  totals: PreemptableTotals,
  jobRank: number,
  rankOfSlot: (slot: number) => number,
): number {
  let total = totals.unallocatedGpus;
  for (let slot = 0; slot < totals.bySlot.length; slot += 1) {
    const bySize = totals.bySlot[slot];
    if (!bySize || rankOfSlot(slot) <= jobRank) continue;
    for (let at = 0; at < bySize.sizes.length; at += 1) total += bySize.gpus[at]!;
  }
  return total;
}

/**
 * What the share guard on `holdings` lets a job do to the runs the totals count for a budget
 * slot: preempt none, every one, or some (each run must then be asked). Asked of the slot's
 * smallest and largest run sizes alone, since a larger victim only makes the guard stricter
 * (`Holdings.mayPreemptAt` is monotone in the victim's GPUs). "none" when the slot counts no run.
 * The engine's guard in fact answers a budget's runs alike (ADR 011), so "some" stays for guards
 * that would not.
 */
export function judgeSlotByShareGuard(
  totals: PreemptableTotals,
  slot: number,
  job: { node: number; gpus: number },
  holdings: Holdings,
  victimNode: number,
): "none" | "some" | "all" {
  const bySize = totals.bySlot[slot];
  if (!bySize) return "none";
  let smallestGpus = Number.POSITIVE_INFINITY;
  let largestGpus = 0;
  for (let at = 0; at < bySize.sizes.length; at += 1) {
    if (bySize.gpus[at]! <= 0) continue;
    const size = bySize.sizes[at]!;
    if (size < smallestGpus) smallestGpus = size;
    if (size > largestGpus) largestGpus = size;
  }
  if (largestGpus === 0) return "none";
  if (!holdings.mayPreemptAt(job.node, victimNode, job.gpus, smallestGpus)) return "none";
  if (largestGpus === smallestGpus) return "all";
  return holdings.mayPreemptAt(job.node, victimNode, job.gpus, largestGpus) ? "all" : "some";
}

/** Preemptable totals kept current as runs come and go and protections end (internal). */
export type PreemptableTracker = {
  add(entry: LiveRun): void;
  remove(entry: LiveRun): void;
  /**
   * The totals at `nowSec`: runs whose protection ended by then join them. Time going back
   * recounts the standing `entries` (gaps have a null `run`). Every entry added then has its
   * `isProtectedNow` right for `nowSec`: allocated and protected past it.
   */
  totalsAt(nowSec: number, entries: readonly LiveRun[]): PreemptableTotals;
  /** Protections of standing runs ended so far, as the last `totalsAt` counted them. */
  readonly protectionEnds: number;
};

/**
 * Creates an empty tracker: O(log runs) per change and per protection that ends, so a pass
 * reads the totals without walking the runs.
 *
 * @example createPreemptableTracker().totalsAt(0, []).unallocatedGpus // 0
 */
export function createPreemptableTracker(): PreemptableTracker {
  let totals = emptyTotals();
  let atSec = Number.NEGATIVE_INFINITY;
  // Protected runs, soonest protection end first; `waiting` tells which are still standing.
  let heap: LiveRun[] = [];
  let waiting = new Set<LiveRun>();
  let protectionEnds = 0;

  const count = (entry: LiveRun, sign: 1 | -1): void => {
    let gpus = 0;
    for (const slice of entry.slices) gpus += slice.gpus;
    if (!entry.isAllocated) {
      totals.unallocatedGpus += sign * gpus;
      if (sign > 0) totals.unallocatedRuns.add(entry);
      else totals.unallocatedRuns.delete(entry);
      return;
    }
    let runs = totals.runsBySlot[entry.budgetSlot];
    if (!runs) {
      runs = new Set();
      totals.runsBySlot[entry.budgetSlot] = runs;
    }
    if (sign > 0) runs.add(entry);
    else runs.delete(entry);
    let bySize = totals.bySlot[entry.budgetSlot];
    if (!bySize) {
      bySize = { sizes: [], gpus: [] };
      totals.bySlot[entry.budgetSlot] = bySize;
    }
    let at = bySize.sizes.indexOf(entry.gpus);
    if (at < 0) {
      at = bySize.sizes.length;
      bySize.sizes.push(entry.gpus);
      bySize.gpus.push(0);
    }
    bySize.gpus[at] = bySize.gpus[at]! + sign * gpus;
  };
  const push = (entry: LiveRun): void => {
    heap.push(entry);
    let at = heap.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (heap[parent]!.protectedUntilSec <= entry.protectedUntilSec) break;
      heap[at] = heap[parent]!;
      at = parent;
    }
    heap[at] = entry;
  };
  const pop = (): LiveRun => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= heap.length) break;
        const right = child + 1;
        if (right < heap.length && heap[right]!.protectedUntilSec < heap[child]!.protectedUntilSec)
          child = right;
        if (heap[child]!.protectedUntilSec >= last.protectedUntilSec) break;
        heap[at] = heap[child]!;
        at = child;
      }
      heap[at] = last;
    }
    return top;
  };
  const add = (entry: LiveRun): void => {
    entry.isProtectedNow = entry.isAllocated && atSec < entry.protectedUntilSec;
    if (entry.isProtectedNow) {
      waiting.add(entry);
      push(entry);
    } else count(entry, 1);
  };

  return {
    add,
    remove(entry) {
      if (!waiting.delete(entry)) count(entry, -1);
    },
    totalsAt(nowSec, entries) {
      if (nowSec < atSec) {
        totals = emptyTotals();
        heap = [];
        waiting = new Set();
        atSec = nowSec;
        for (const entry of entries) if (entry.run !== null) add(entry);
      }
      atSec = nowSec;
      while (heap.length > 0 && heap[0]!.protectedUntilSec <= nowSec) {
        const entry = pop();
        entry.isProtectedNow = false;
        if (waiting.delete(entry)) {
          count(entry, 1);
          protectionEnds += 1;
        }
      }
      return totals;
    },
    get protectionEnds() {
      return protectionEnds;
    },
  };
}
