// How a waiting job of a given rank sees the allocated runs: GPUs preemptable, protected and
// held above it, built incrementally over queue order for the wait reasons.
import type { LiveRun } from "./live-run";
import type { GpuPool } from "./placement";

/** An allocated run as the rank views read it (`slot`: its place among protection ends). */
type ViewedRun = {
  budgetSlot: number;
  rank: number;
  gpus: number;
  isProtected: boolean;
  untilSec: number;
  slot: number;
};

/** The runs' GPUs on usable nodes: unallocated in all, and each allocated run with its budget. */
function collectRuns(live: readonly LiveRun[], pool: GpuPool) {
  const usable = (entry: LiveRun): number =>
    entry.slices.reduce((sum, slice) => sum + (pool.isUsable[slice.position] ? slice.gpus : 0), 0);
  let unallocatedGpus = 0;
  const budgetIdOfSlot: string[] = [];
  const slotByBudgetId = new Map<string, number>();
  const allocated: ViewedRun[] = [];
  for (const entry of live) {
    if (entry.isGone) continue;
    if (!entry.isAllocated) unallocatedGpus += usable(entry);
    else {
      if (entry.budgetSlot >= budgetIdOfSlot.length) budgetIdOfSlot.length = entry.budgetSlot + 1;
      budgetIdOfSlot[entry.budgetSlot] = entry.budgetId;
      slotByBudgetId.set(entry.budgetId, entry.budgetSlot);
      allocated.push({
        budgetSlot: entry.budgetSlot,
        rank: entry.rank,
        gpus: usable(entry),
        isProtected: entry.isProtectedNow,
        untilSec: entry.protectedUntilSec,
        slot: -1,
      });
    }
  }
  return { unallocatedGpus, budgetIdOfSlot, slotByBudgetId, allocated };
}

/**
 * Aggregates over runs seen from a job of rank r: GPUs preemptable now, held by protected runs
 * of lower-ranked budgets (with a Fenwick tree over their protection ends, to find when enough
 * become free), and held by budgets ranked at or above. Queried in non-decreasing rank (queue
 * order), runs move once from "below" to "above", so all views cost O(runs log runs).
 */
export function createRankViews(live: readonly LiveRun[], pool: GpuPool) {
  const { unallocatedGpus, budgetIdOfSlot, slotByBudgetId, allocated } = collectRuns(live, pool);
  const protectedRuns = allocated
    .filter((run) => run.isProtected)
    .sort((a, b) => a.untilSec - b.untilSec);
  protectedRuns.forEach((run, slot) => (run.slot = slot));
  const ends = protectedRuns.map((run) => run.untilSec);
  allocated.sort((a, b) => a.rank - b.rank);
  const size = protectedRuns.length;
  const tree = new Float64Array(size + 1);
  const add = (slot: number, gpus: number): void => {
    for (let i = slot + 1; i <= size; i += i & -i) tree[i] = tree[i]! + gpus;
  };
  let cursor = 0;
  let currentRank = Number.NEGATIVE_INFINITY;
  let unprotectedBelowGpus = 0;
  let protectedBelowGpus = 0;
  let heldByHigherGpus = 0;
  // GPUs per budget slot among those ranked at or above, and the two slots holding the most:
  // sums only grow between resets, so the top two stay exact (a job's own budget may be one).
  const heldBySlot = new Float64Array(budgetIdOfSlot.length);
  let top = -1;
  let second = -1;
  const hold = (slot: number, gpus: number): void => {
    const held = (heldBySlot[slot] = heldBySlot[slot]! + gpus);
    if (slot === top) return;
    if (top === -1 || held > heldBySlot[top]!) {
      second = top;
      top = slot;
    } else if (slot !== second && (second === -1 || held > heldBySlot[second]!)) {
      second = slot;
    }
  };
  const reset = (): void => {
    tree.fill(0);
    cursor = 0;
    unprotectedBelowGpus = 0;
    protectedBelowGpus = 0;
    heldByHigherGpus = 0;
    heldBySlot.fill(0);
    top = -1;
    second = -1;
    for (const run of allocated) {
      if (run.isProtected) {
        protectedBelowGpus += run.gpus;
        add(run.slot, run.gpus);
      } else unprotectedBelowGpus += run.gpus;
    }
  };
  reset();
  const moveTo = (rank: number): void => {
    if (rank < currentRank) reset();
    currentRank = rank;
    while (cursor < allocated.length && allocated[cursor]!.rank <= rank) {
      const run = allocated[cursor]!;
      heldByHigherGpus += run.gpus;
      if (run.gpus > 0) hold(run.budgetSlot, run.gpus);
      if (run.isProtected) {
        protectedBelowGpus -= run.gpus;
        add(run.slot, -run.gpus);
      } else unprotectedBelowGpus -= run.gpus;
      cursor += 1;
    }
  };
  /** Smallest protection end by which at least `gpus` of lower-ranked protected GPUs free up. */
  const endCovering = (gpus: number): number | null => {
    if (gpus > protectedBelowGpus) return null;
    let position = 0;
    let remaining = gpus;
    for (let step = 1 << Math.floor(Math.log2(Math.max(1, size))); step > 0; step >>= 1) {
      const next = position + step;
      if (next <= size && tree[next]! < remaining) {
        position = next;
        remaining -= tree[next]!;
      }
    }
    return ends[position] ?? null;
  };
  return (rank: number) => {
    moveTo(rank);
    return {
      preemptableGpus: unallocatedGpus + unprotectedBelowGpus,
      protectedGpus: protectedBelowGpus,
      heldByHigherGpus,
      endCovering,
      /** GPUs the runs of `ownId` hold (counted in `heldByHigherGpus`: its rank is the job's). */
      ownGpus: (ownId: string): number => {
        const slot = slotByBudgetId.get(ownId);
        return slot === undefined ? 0 : heldBySlot[slot]!;
      },
      /** The budget other than `ownId` holding the most GPUs at or above this rank, if any. */
      topHolder: (ownId: string): { budgetId: string; gpus: number } | null => {
        const slot = top !== -1 && budgetIdOfSlot[top] === ownId ? second : top;
        return slot === -1 ? null : { budgetId: budgetIdOfSlot[slot]!, gpus: heldBySlot[slot]! };
      },
    };
  };
}

/** The views of runs from a rank (`createRankViews`). */
export type RankViews = ReturnType<typeof createRankViews>;
