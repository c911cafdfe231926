import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LiveRun } from "./live-run";
import { createHoldings, type Holdings } from "./holdings";
import {
  createPreemptableTracker,
  guardedPreemptableGpus,
  judgeSlotByShareGuard,
  type PreemptableTotals,
} from "./preemptable-totals";
import { buildTree, makeRun } from "./test-helpers";

function entryOf(id: number, slot: number, gpus: number, isAllocated: boolean, untilSec: number) {
  const run = makeRun(`r${id}`, `b${slot}`, [{ node: 0, gpus }], {
    isAllocated,
    protectedUntilSec: untilSec,
  });
  const entry: LiveRun = {
    id: run.id,
    budgetId: run.budgetId,
    budgetSlot: slot,
    isAllocated,
    rank: 0,
    startSec: 0,
    gpus,
    slices: [{ position: 0, gpus }],
    protectedUntilSec: untilSec,
    isGone: false,
    isProtectedNow: false,
    run,
  };
  return entry;
}

/** The totals counted from scratch: what the tracker must always give. */
function countAt(entries: readonly LiveRun[], nowSec: number) {
  let unallocatedGpus = 0;
  const bySlot = new Map<string, number>();
  const counted: string[] = [];
  const isProtectedNow: boolean[] = [];
  for (const entry of entries) {
    if (entry.run === null) continue;
    isProtectedNow.push(entry.isAllocated && nowSec < entry.protectedUntilSec);
    if (!entry.isAllocated) {
      unallocatedGpus += entry.gpus;
      counted.push(`unallocated/${entry.id}`);
    } else if (entry.protectedUntilSec <= nowSec) {
      const key = `${entry.budgetSlot}/${entry.gpus}`;
      bySlot.set(key, (bySlot.get(key) ?? 0) + entry.gpus);
      counted.push(`${entry.budgetSlot}/${entry.id}`);
    }
  }
  return { unallocatedGpus, bySlot, counted: counted.sort(), isProtectedNow };
}

function flatten(totals: PreemptableTotals, entries: readonly LiveRun[]) {
  const bySlot = new Map<string, number>();
  totals.bySlot.forEach((bySize, slot) => {
    bySize?.sizes.forEach((gpus, at) => {
      if (bySize.gpus[at] !== 0) bySlot.set(`${slot}/${gpus}`, bySize.gpus[at]!);
    });
  });
  const counted = [...totals.unallocatedRuns].map((entry) => `unallocated/${entry.id}`);
  totals.runsBySlot.forEach((runs, slot) => {
    for (const entry of runs ?? []) counted.push(`${slot}/${entry.id}`);
  });
  return {
    unallocatedGpus: totals.unallocatedGpus,
    bySlot,
    counted: counted.sort(),
    isProtectedNow: entries.filter((entry) => entry.run !== null).map((e) => e.isProtectedNow),
  };
}

describe("preemptable totals", () => {
  it("match a count from scratch as runs come and go and time moves, back included", () => {
    // Totals, the runs counted and each run's protection flag.
    const step = fc.oneof(
      fc.record({
        kind: fc.constant("add" as const),
        slot: fc.integer({ min: 0, max: 3 }),
        gpus: fc.constantFrom(1, 2, 8),
        isAllocated: fc.boolean(),
        untilSec: fc.integer({ min: 0, max: 100 }),
      }),
      fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant("pass" as const), atSec: fc.integer({ min: 0, max: 100 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const tracker = createPreemptableTracker();
        const entries: LiveRun[] = [];
        for (const [i, action] of steps.entries()) {
          if (action.kind === "add") {
            const entry = entryOf(i, action.slot, action.gpus, action.isAllocated, action.untilSec);
            entries.push(entry);
            tracker.add(entry);
          } else if (action.kind === "remove") {
            const standing = entries.filter((entry) => entry.run !== null);
            if (standing.length === 0) continue;
            const entry = standing[action.pick % standing.length]!;
            entry.run = null;
            tracker.remove(entry);
          } else {
            const totals = tracker.totalsAt(action.atSec, entries);
            expect(flatten(totals, entries)).toEqual(countAt(entries, action.atSec));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("guarded preemptable GPUs", () => {
  it("stop counting once they reach what the caller needs, and count all below it", () => {
    const tracker = createPreemptableTracker();
    const entries = [
      entryOf(0, 0, 2, false, 0),
      entryOf(1, 1, 4, true, 0),
      entryOf(2, 2, 8, true, 0),
      entryOf(3, 3, 1, true, 0),
    ];
    for (const entry of entries) tracker.add(entry);
    const totals = tracker.totalsAt(100, entries);
    const tree = buildTree({ name: "lab", children: [0, 1, 2, 3].map((i) => ({ name: `b${i}` })) });
    // The victims' budgets hold 10 GPUs each, b0 none: the share guard lets b0 take from all.
    const holdings = createHoldings(
      tree,
      [1, 2, 3].map((i) => ({ budgetId: `b${i}`, gpus: 10 })),
    );
    const count = (enoughGpus?: number) =>
      guardedPreemptableGpus(
        totals,
        { node: holdings.nodeIndexOf("b0"), gpus: 1, rank: 1 },
        holdings,
        (slot) => slot + 1,
        (slot) => holdings.nodeIndexOf(`b${slot}`),
        enoughGpus,
      );
    // Every run is unprotected and ranked below b0: unallocated 2, then b1's 4, b2's 8, b3's 1.
    expect(count()).toBe(2 + 4 + 8 + 1);
    expect(count(100)).toBe(15);
    expect(count(5)).toBe(2 + 4);
    expect(count(6)).toBe(2 + 4);
    expect(count(7)).toBe(2 + 4 + 8);
    expect(count(2)).toBe(2);
  });
});

/** Holdings whose share guard lets any budget preempt runs of at most `maxVictimGpus` GPUs. */
function thresholdGuard(maxVictimGpus: number): Holdings {
  const unused = (): never => {
    throw new Error("not used by judgeSlotByShareGuard");
  };
  return {
    add: unused,
    mayPreempt: unused,
    mayPreemptAt: (_preemptor, _victim, _jobGpus, victimGpus) => victimGpus <= maxVictimGpus,
    nodeIndexOf: unused,
    heldGpus: unused,
    snapshot: unused,
  };
}

describe("judgeSlotByShareGuard", () => {
  // Runs of two victim budgets (slots 1 and 2), some protected past the moment of the totals,
  // some removed; the tracker is brought to that moment first, so that removed runs leave sizes
  // counted at 0 behind.
  const runsArbitrary = fc.array(
    fc.record({
      slot: fc.integer({ min: 1, max: 2 }),
      gpus: fc.constantFrom(1, 2, 4, 8, 16),
      untilSec: fc.constantFrom(0, 200),
      isRemoved: fc.boolean(),
    }),
    { maxLength: 12 },
  );
  const totalsOf = (
    runs: { slot: number; gpus: number; untilSec: number; isRemoved: boolean }[],
  ) => {
    const tracker = createPreemptableTracker();
    tracker.totalsAt(100, []);
    const entries = runs.map((run, i) => entryOf(i, run.slot, run.gpus, true, run.untilSec));
    for (const entry of entries) tracker.add(entry);
    runs.forEach((run, i) => {
      if (!run.isRemoved) return;
      entries[i]!.run = null;
      tracker.remove(entries[i]!);
    });
    return tracker.totalsAt(100, entries);
  };
  const verdictOf = (answers: boolean[]) =>
    !answers.includes(true) ? "none" : answers.includes(false) ? "some" : "all";

  it("says none, all or some as a guard monotone in the victim's GPUs answers each run", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(runsArbitrary, fc.integer({ min: 0, max: 16 }), (runs, maxVictimGpus) => {
        const totals = totalsOf(runs);
        const holdings = thresholdGuard(maxVictimGpus);
        for (const slot of [1, 2]) {
          const answers = [...(totals.runsBySlot[slot] ?? [])].map(
            (entry) => entry.gpus <= maxVictimGpus,
          );
          seen.add(verdictOf(answers));
          const job = { node: 1, gpus: 1 };
          expect(judgeSlotByShareGuard(totals, slot, job, holdings, slot + 1)).toBe(
            verdictOf(answers),
          );
        }
      }),
      { numRuns: 500 },
    );
    expect([...seen].sort()).toEqual(["all", "none", "some"]);
  });

  it("agrees with the real share guard asked of each run, on shares 3:1:2", () => {
    const tree = buildTree({
      name: "lab",
      children: [3, 1, 2].map((weight, i) => ({ name: `b${i}`, weight })),
    });
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        runsArbitrary,
        fc.array(fc.nat({ max: 48 }), { minLength: 3, maxLength: 3 }),
        fc.constantFrom(1, 2, 4, 8, 16),
        (runs, held, jobGpus) => {
          const totals = totalsOf(runs);
          const holdings = createHoldings(
            tree,
            held.map((gpus, i) => ({ budgetId: `b${i}`, gpus })),
          );
          const job = { node: holdings.nodeIndexOf("b0"), gpus: jobGpus };
          for (const slot of [1, 2]) {
            const victimNode = holdings.nodeIndexOf(`b${slot}`);
            const answers = [...(totals.runsBySlot[slot] ?? [])].map((entry) =>
              holdings.mayPreemptAt(job.node, victimNode, job.gpus, entry.gpus),
            );
            seen.add(verdictOf(answers));
            expect(judgeSlotByShareGuard(totals, slot, job, holdings, victimNode)).toBe(
              verdictOf(answers),
            );
          }
        },
      ),
      { numRuns: 500 },
    );
    // The real guard refuses or allows a budget's runs alike: its second rule (the preemptor
    // below the victim before the preemption) holds whenever its first does.
    expect([...seen].sort()).toEqual(["all", "none"]);
  });
});
