import { describe, expect, it } from "vitest";
import { chooseShortReserve, reserveKeptFrom, type ReserveRun } from "./short-reserve";

/** Sixteen healthy 8-GPU nodes, `busy` of them full. */
function nodesOf(count: number, busy: number) {
  return {
    capacity: Array.from({ length: count }, () => 8),
    free: Array.from({ length: count }, (_, position) => (position < busy ? 0 : 8)),
    isUsable: Array.from({ length: count }, () => 1),
    nodeSizeGpus: 8,
  };
}

/** One whole-node run per position given, with its rank and state. */
function runsOf(specs: { rank: number; isProtected?: boolean; isAllocated?: boolean }[]) {
  const runs: ReserveRun[] = specs.map((spec, position) => ({
    isGone: false,
    isAllocated: spec.isAllocated ?? true,
    isProtectedNow: spec.isProtected ?? false,
    rank: spec.rank,
    slices: [{ position }],
  }));
  return { runs, heldByPosition: runs.map((_, index) => [index]) };
}

describe("chooseShortReserve (ADR 098)", () => {
  it("keeps the unprotected node whose best-ranked run ranks lowest, ties to the lowest", () => {
    const { runs, heldByPosition } = runsOf([
      { rank: 9, isProtected: true },
      { rank: 3 },
      { rank: 7 },
      { rank: 7 },
      { rank: 12, isAllocated: false },
    ]);
    expect(chooseShortReserve(nodesOf(16, 5), runs, heldByPosition, 16)).toBe(2);
  });

  it("keeps none on fewer than 16 full-size healthy nodes, or with no candidate", () => {
    const { runs, heldByPosition } = runsOf([{ rank: 2 }]);
    expect(chooseShortReserve(nodesOf(16, 1), runs, heldByPosition, 16)).toBe(0);
    expect(chooseShortReserve(nodesOf(15, 1), runs, heldByPosition, 15)).toBe(-1);
    const down = { ...nodesOf(16, 1), isUsable: [...nodesOf(16, 1).isUsable] };
    down.isUsable[9] = 0;
    expect(chooseShortReserve(down, runs, heldByPosition, 15)).toBe(-1);
    const held = runsOf([{ rank: 2, isProtected: true }]);
    expect(chooseShortReserve(nodesOf(16, 1), held.runs, held.heldByPosition, 16)).toBe(-1);
  });

  it("is kept from jobs that are not short, gang jobs too", () => {
    expect(reserveKeptFrom({ gpus: 8, minRuntimeSec: 3600 }, 8, 4)).toBe(4);
    expect(reserveKeptFrom({ gpus: 16, minRuntimeSec: 900 }, 8, 4)).toBe(4);
    expect(reserveKeptFrom({ gpus: 8, minRuntimeSec: 900 }, 8, 4)).toBe(-1);
  });
});
