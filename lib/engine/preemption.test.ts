import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGpuPool } from "./placement";
import {
  canMakeRoom,
  canMakeRoomAmong,
  hasRoomIn,
  positionsWithRoom,
  roomAmong,
  compareVictims,
  planPreemption,
  type VictimCandidate,
  type VictimSlot,
} from "./preemption";

function candidate(id: string, extra: Partial<VictimCandidate>): VictimCandidate {
  return { id, isAllocated: true, rank: 2, startSec: 0, gpus: 4, slices: [], ...extra };
}

describe("compareVictims", () => {
  it("unallocated first, then the lowest-ranked budget, then the latest start, then id", () => {
    const runs = [
      candidate("rank2-early", { rank: 2, startSec: 0 }),
      candidate("rank3", { rank: 3, startSec: 0 }),
      candidate("free", { isAllocated: false, rank: 1 }),
      candidate("rank2-late", { rank: 2, startSec: 50 }),
    ];
    expect([...runs].sort(compareVictims).map((run) => run.id)).toEqual([
      "free",
      "rank3",
      "rank2-late",
      "rank2-early",
    ]);
  });
});

describe("planPreemption", () => {
  // Two nodes of 8: node 0 holds a young rank-3 run (4 GPUs) and 4 free; node 1 an old
  // unallocated run (8 GPUs).
  const candidates = [
    candidate("young", { rank: 3, startSec: 900, gpus: 4, slices: [{ position: 0, gpus: 4 }] }),
    candidate("free", {
      isAllocated: false,
      startSec: 0,
      gpus: 8,
      slices: [{ position: 1, gpus: 8 }],
    }),
  ];
  const slots: VictimSlot[][] = [[{ candidate: 0, gpus: 4 }], [{ candidate: 1, gpus: 8 }]];
  const makePool = () => {
    const pool = createGpuPool([
      { index: 0, gpus: 8, health: "healthy" },
      { index: 1, gpus: 8, health: "healthy" },
    ]);
    pool.free.set([4, 0]);
    return pool;
  };

  it("prefers a node whose victims are all unallocated", () => {
    expect(planPreemption(makePool(), 8, candidates, slots, () => true, 1000)).toEqual({
      victims: [1],
      placement: [{ node: 1, gpus: 8 }],
    });
  });

  it("clears whole nodes for a gang job, or returns null without preempting anything", () => {
    expect(planPreemption(makePool(), 16, candidates, slots, () => true, 1000)).toEqual({
      victims: [1, 0],
      placement: [
        { node: 0, gpus: 8 },
        { node: 1, gpus: 8 },
      ],
    });
    expect(planPreemption(makePool(), 16, candidates, slots, (i) => i === 1, 1000)).toBeNull();
  });
});

describe("canMakeRoom and canMakeRoomAmong", () => {
  it("answer as planPreemption does, on random nodes, runs and permissions", () => {
    const node = fc.record({ gpus: fc.constantFrom(4, 8), isHealthy: fc.boolean() });
    const run = fc.record({
      // Where the run sits: a start node and a width in nodes (gang runs span nodes).
      node: fc.nat(),
      span: fc.integer({ min: 1, max: 2 }),
      gpusPerNode: fc.integer({ min: 1, max: 8 }),
      isAllocated: fc.boolean(),
      isAllowed: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(node, { minLength: 1, maxLength: 5 }),
        fc.array(run, { maxLength: 12 }),
        fc.integer({ min: 1, max: 24 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        (nodes, runs, gpus, excludedFlags) => {
          const pool = createGpuPool(
            nodes.map((spec, index) => ({
              index,
              gpus: spec.gpus,
              health: spec.isHealthy ? "healthy" : "draining",
            })),
          );
          const candidates: VictimCandidate[] = [];
          const allowed: boolean[] = [];
          const heldByPosition: number[][] = nodes.map(() => []);
          for (const spec of runs) {
            const positions = Array.from(
              { length: Math.min(spec.span, nodes.length) },
              (_, i) => (spec.node + i) % nodes.length,
            );
            // Only what still fits on every node of the run.
            if (positions.some((position) => pool.free[position]! < spec.gpusPerNode)) continue;
            const index = candidates.length;
            for (const position of positions) {
              pool.free[position] = pool.free[position]! - spec.gpusPerNode;
              heldByPosition[position]!.push(index);
            }
            candidates.push(
              candidate(`r${index}`, {
                isAllocated: spec.isAllocated,
                startSec: index,
                gpus: spec.gpusPerNode * positions.length,
                slices: positions.map((position) => ({ position, gpus: spec.gpusPerNode })),
              }),
            );
            allowed.push(spec.isAllowed);
          }
          const isAllowed = (index: number): boolean => allowed[index]!;
          const slots: VictimSlot[][] = heldByPosition.map((indices, position) =>
            pool.isUsable[position]
              ? indices.map((index) => ({
                  candidate: index,
                  gpus: candidates[index]!.slices.find((slice) => slice.position === position)!
                    .gpus,
                }))
              : [],
          );
          const plan = planPreemption(pool, gpus, candidates, slots, isAllowed, 100);
          expect(canMakeRoom(pool, gpus, candidates, heldByPosition, isAllowed)).toBe(
            plan !== null,
          );
          const excluded = Uint8Array.from(nodes, (_, i) => (excludedFlags[i] ? 1 : 0));
          const planOutside = planPreemption(
            pool,
            gpus,
            candidates,
            slots,
            isAllowed,
            100,
            excluded,
          );
          expect(canMakeRoom(pool, gpus, candidates, heldByPosition, isAllowed, excluded)).toBe(
            planOutside !== null,
          );
          // Reading only some candidates, in groups: the allowed ones and a few others suffice.
          const byRun = new Map(candidates.map((run, index) => [run, index]));
          const isAllowedRun = (run: VictimCandidate): boolean => allowed[byRun.get(run)!]!;
          const groups = [
            candidates.filter((run, index) => index % 2 === 0 && (allowed[index] || index % 3)),
            candidates.filter((run, index) => index % 2 === 1 && allowed[index]),
          ];
          expect(canMakeRoomAmong(pool, gpus, groups, isAllowedRun)).toBe(plan !== null);
          expect(canMakeRoomAmong(pool, gpus, groups, isAllowedRun, excluded)).toBe(
            planOutside !== null,
          );
          // Read at only the positions whose room could count: the same answers.
          const room = roomAmong(pool, groups, isAllowedRun);
          // Written into a reused list that holds other numbers: the same room, in that list.
          const reused = new Array<number>(room.length + 2).fill(99);
          expect(roomAmong(pool, groups, isAllowedRun, reused)).toBe(reused);
          expect(reused.slice(0, room.length)).toEqual(room);
          const positions = positionsWithRoom(pool, gpus, room);
          expect(hasRoomIn(pool, gpus, room, undefined, positions)).toBe(plan !== null);
          expect(hasRoomIn(pool, gpus, room, excluded, positions)).toBe(planOutside !== null);
          // Planned at only those positions, with victim lists of those alone: the same plans.
          const onlyThere = slots.map((list, position) =>
            positions.includes(position) ? list : [],
          );
          expect(
            planPreemption(pool, gpus, candidates, onlyThere, isAllowed, 100, undefined, positions),
          ).toEqual(plan);
          expect(
            planPreemption(pool, gpus, candidates, onlyThere, isAllowed, 100, excluded, positions),
          ).toEqual(planOutside);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
