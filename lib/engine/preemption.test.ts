import { describe, expect, it } from "vitest";
import { createGpuPool } from "./placement";
import {
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
