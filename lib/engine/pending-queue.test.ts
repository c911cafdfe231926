import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { queueFromPending, type PendingQueue } from "./pending-queue";
import { createStandingQueue } from "./standing-queue";
import { orderQueue } from "./queue-order";
import { buildTree, makeCluster } from "./test-helpers";
import type { PendingJob, Priority } from "./types";

const tree = buildTree({
  name: "lab",
  children: [
    { name: "a", children: [{ name: "x" }, { name: "y" }] },
    { name: "b", children: [{ name: "z" }, { name: "w", weight: 0 }] },
  ],
});
const cluster = makeCluster(2, 8);
const LEAVES = ["a/x", "a/y", "b/z", "b/w"];

function job(id: string, budgetId: string, extra: Partial<PendingJob> = {}): PendingJob {
  return {
    id,
    budgetId,
    userId: "u",
    gpus: 1,
    minRuntimeSec: 600,
    isResumable: true,
    priority: "normal",
    submitSec: 0,
    ...extra,
  };
}

/** Every job of the queue in walk order: allocated groups, then unallocated ones. */
function walkAll(queue: PendingQueue, rankOf: (budgetId: string) => number): string[] {
  const ids: string[] = [];
  for (const isAllocated of [true, false]) {
    const nextGroup = queue.walk(isAllocated, rankOf);
    for (let group = nextGroup(); group; group = nextGroup()) {
      let previous = -Infinity;
      const before = ids.length;
      for (let next = group.next(); next; next = group.next()) {
        expect(rankOf(next.budgetId)).toBe(group.rank);
        expect(next.gpus).toBeGreaterThanOrEqual(group.minGpus);
        expect(next.minRuntimeSec).toBeGreaterThanOrEqual(group.minMinRuntimeSec);
        if (next.minRuntimeSec <= 900) expect(next.gpus).toBeGreaterThanOrEqual(group.minShortGpus);
        ids.push(next.id);
      }
      // No empty group.
      expect(ids.length).toBeGreaterThan(before);
      expect(group.rank).toBeGreaterThan(previous);
      previous = group.rank;
    }
  }
  return ids;
}

function standingQueueOf(jobs: readonly PendingJob[]): PendingQueue {
  const queue = createStandingQueue(tree, cluster);
  for (const queued of jobs) queue.add(queued);
  return queue;
}

const jobsArbitrary = fc.array(
  fc.record({
    leaf: fc.nat(3),
    gpus: fc.constantFrom(1, 2, 4, 8, 16),
    minRuntimeSec: fc.constantFrom(0, 600, 3600),
    priority: fc.constantFrom<Priority>("low", "normal", "high"),
    submitSec: fc.integer({ min: 0, max: 6 }),
  }),
  { maxLength: 40 },
);

describe("standing queue", () => {
  it("walks exactly the order of orderQueue, ties between budgets included, after removals", () => {
    fc.assert(
      fc.property(
        jobsArbitrary,
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.nat(39), { maxLength: 10 }),
        (specs, ranks, removals) => {
          const jobs = specs.map((spec, i) =>
            job(`j${String(i).padStart(2, "0")}`, LEAVES[spec.leaf]!, spec),
          );
          const rankOf = (budgetId: string): number => ranks[LEAVES.indexOf(budgetId)]!;
          // Zero share (b/w) or zero minimum runtime: unallocated.
          const isAllocated = (queued: PendingJob): boolean =>
            queued.minRuntimeSec > 0 && queued.budgetId !== "b/w";
          const queue = createStandingQueue(tree, cluster);
          // Walks between changes, with the same rankOf: the queue keeps its order of budgets
          // until a budget's line empties or fills.
          const half = Math.floor(jobs.length / 2);
          for (const queued of jobs.slice(0, half)) queue.add(queued);
          expect(walkAll(queue, rankOf)).toEqual(
            orderQueue(jobs.slice(0, half), rankOf, isAllocated).map((queued) => queued.id),
          );
          for (const queued of jobs.slice(half)) queue.add(queued);
          expect(walkAll(queue, rankOf)).toEqual(
            orderQueue(jobs, rankOf, isAllocated).map((queued) => queued.id),
          );
          const removed = new Set(removals.map((i) => `j${String(i).padStart(2, "0")}`));
          for (const id of removed) queue.remove(id);
          const left = jobs.filter((queued) => !removed.has(queued.id));
          const expected = orderQueue(left, rankOf, isAllocated).map((queued) => queued.id);
          expect(walkAll(queue, rankOf)).toEqual(expected);
          expect(walkAll(queueFromPending(left, tree, cluster), rankOf)).toEqual(expected);
          expect(queue.allocatedCount).toBe(left.filter(isAllocated).length);
          expect(queue.unallocatedCount).toBe(left.length - queue.allocatedCount);
          expect(queue.minGpus).toBe(Math.min(...left.map((queued) => queued.gpus)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("walks the order of orderQueue after every add and removal, as budgets gain and lose priorities", () => {
    // Mostly one priority per budget, so that a budget's lines go from one priority to two and
    // back (one list while one priority is queued) and ties between budgets read submit order.
    const opsArbitrary = fc.array(
      fc.record({
        isRemoval: fc.boolean(),
        leaf: fc.nat(3),
        priority: fc.constantFrom<Priority>("normal", "normal", "normal", "high", "low"),
        gpus: fc.constantFrom(1, 2, 8),
        submitSec: fc.integer({ min: 0, max: 4 }),
        pick: fc.nat(),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(
        opsArbitrary,
        fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 4, maxLength: 4 }),
        (ops, ranks) => {
          const rankOf = (budgetId: string): number => ranks[LEAVES.indexOf(budgetId)]!;
          const isAllocated = (queued: PendingJob): boolean =>
            queued.minRuntimeSec > 0 && queued.budgetId !== "b/w";
          const queue = createStandingQueue(tree, cluster);
          let queued: PendingJob[] = [];
          ops.forEach((op, i) => {
            if (op.isRemoval && queued.length > 0) {
              const gone = queued[op.pick % queued.length]!;
              queue.remove(gone.id);
              queued = queued.filter((other) => other !== gone);
            } else {
              const added = job(`j${String(i).padStart(2, "0")}`, LEAVES[op.leaf]!, op);
              queue.add(added);
              queued.push(added);
            }
            expect(walkAll(queue, rankOf)).toEqual(
              orderQueue(queued, rankOf, isAllocated).map((kept) => kept.id),
            );
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps jobs that can never start apart, as errors", () => {
    const queue = createStandingQueue(tree, cluster);
    queue.add(job("inner", "a"));
    queue.add(job("huge", "a/x", { gpus: 17 }));
    queue.add(job("fine", "a/x"));
    expect(queue.errors.map((error) => [error.jobId, error.reason.rule])).toEqual([
      ["inner", "error-invalid-job"],
      ["huge", "error-larger-than-cluster"],
    ]);
    expect(queue.size).toBe(3);
    expect(queue.allocatedCount).toBe(1);
    queue.remove("huge");
    expect(queue.errors.map((error) => error.jobId)).toEqual(["inner"]);
  });

  it("refuses a job queued twice and ignores the removal of an unknown one", () => {
    const queue = createStandingQueue(tree, cluster);
    queue.add(job("j1", "a/x"));
    expect(() => queue.add(job("j1", "a/y"))).toThrow(/already queued/);
    queue.remove("nobody");
    expect(queue.size).toBe(1);
  });

  it("tells the best rank of the budgets with jobs of a kind queued", () => {
    const queue = createStandingQueue(tree, cluster);
    const rankOf = (budgetId: string) => LEAVES.indexOf(budgetId) + 1;
    expect(queue.bestRank(true, rankOf)).toBe(Infinity);
    queue.add(job("z1", "b/z"));
    queue.add(job("y1", "a/y"));
    // w has no share: its job queues unallocated.
    queue.add(job("w1", "b/w"));
    expect(queue.bestRank(true, rankOf)).toBe(2);
    expect(queue.bestRank(false, rankOf)).toBe(4);
    queue.remove("y1");
    expect(queue.bestRank(true, rankOf)).toBe(3);
    expect([queue.isAllocated("z1"), queue.isAllocated("w1"), queue.isAllocated("y1")]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("raises its bounds when the smallest job leaves", () => {
    const queue = createStandingQueue(tree, cluster);
    queue.add(job("small", "a/x", { gpus: 1, minRuntimeSec: 60 }));
    queue.add(job("large", "a/x", { gpus: 8, minRuntimeSec: 3600 }));
    queue.remove("small");
    expect(queue.minGpus).toBe(8);
    const group = queue.walk(true, () => 1)();
    expect(group).toMatchObject({ rank: 1, minGpus: 8, minMinRuntimeSec: 3600 });
    expect(group?.next()?.id).toBe("large");
    expect(group?.next()).toBeUndefined();
  });

  it("passes over only the jobs its screen names, and never one that passes it", () => {
    const screenArbitrary = fc.record({
      maxGpus: fc.constantFrom(0, 1, 2, 4, 8, 16),
      fromGpus: fc.constantFrom(1, 2, 4, 8, 16, Infinity),
      // Protections ending right at `untilSec` too (kept: backfill may end when the nodes are).
      nowSec: fc.constantFrom(0, 100),
      untilSec: fc.constantFrom(-Infinity, 0, 600, 700, 3600, 3700),
    });
    fc.assert(
      fc.property(
        jobsArbitrary,
        screenArbitrary,
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 4, maxLength: 4 }),
        (specs, { maxGpus, ...backfill }, ranks) => {
          const jobs = specs.map((spec, i) =>
            job(`j${i}`, LEAVES[spec.leaf]!, { ...spec, userId: "u" }),
          );
          // Some leaves tie on rank: their lines are merged.
          const rankOf = (budgetId: string): number => ranks[LEAVES.indexOf(budgetId)]!;
          const passes = (next: PendingJob): boolean =>
            next.gpus <= maxGpus &&
            (next.gpus < backfill.fromGpus ||
              backfill.nowSec + next.minRuntimeSec <= backfill.untilSec);
          for (const queue of [queueFromPending(jobs, tree, cluster), standingQueueOf(jobs)]) {
            for (const isAllocated of [true, false]) {
              const nextGroup = queue.walk(isAllocated, rankOf);
              for (let group = nextGroup(); group; group = nextGroup()) {
                const all: PendingJob[] = [];
                const screened: PendingJob[] = [];
                for (const [into, screen] of [
                  [all, undefined],
                  [screened, backfill],
                ] as const) {
                  // The same group walked again: walks start at the head.
                  const again = queue.walk(isAllocated, rankOf);
                  let same = again();
                  while (same && same.rank !== group.rank) same = again();
                  const read = (): PendingJob | undefined =>
                    screen ? same!.next(maxGpus, screen) : same!.next();
                  for (let next = read(); next; next = read()) into.push(next);
                }
                // Read in order, nothing that passes the screen left out.
                const kept = all.filter(passes);
                expect(screened.filter(passes)).toEqual(kept);
                expect(screened.every((next) => all.includes(next))).toBe(true);
                const order = screened.map((next) => all.indexOf(next));
                expect(order).toEqual([...order].sort((a, b) => a - b));
              }
            }
          }
        },
      ),
    );
  });
});
