import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  canEverPlace,
  createFitCheck,
  createGpuPool,
  freeGpuBounds,
  mayPlaceWithin,
  placeJob,
  placementShape,
} from "./placement";
import type { ClusterNodeState } from "./types";

function pool(free: number[], size = 8, health: ClusterNodeState["health"][] = []) {
  const result = createGpuPool(
    free.map((_, index) => ({ index, gpus: size, health: health[index] ?? "healthy" })),
  );
  free.forEach((f, position) => (result.free[position] = f));
  return result;
}

describe("placementShape", () => {
  it("one node up to the node size; whole nodes plus a remainder above it", () => {
    expect(placementShape(8, 8)).toEqual({ wholeNodes: 0, remainderGpus: 8 });
    expect(placementShape(16, 8)).toEqual({ wholeNodes: 2, remainderGpus: 0 });
    expect(placementShape(20, 8)).toEqual({ wholeNodes: 2, remainderGpus: 4 });
  });
});

describe("placeJob", () => {
  it("best fit: the node with the fewest free GPUs that still holds the job (ties: lowest)", () => {
    expect(placeJob(pool([8, 3, 5, 3]), 3)).toEqual([{ node: 1, gpus: 3 }]);
    expect(placeJob(pool([8, 3, 5, 3]), 4)).toEqual([{ node: 2, gpus: 4 }]);
    expect(placeJob(pool([2, 2]), 3)).toBeNull();
    // Ties short of an exact fit go to the lowest too, found past nodes with too few.
    expect(placeJob(pool([0, 2, 6, 8, 6, 0]), 4)).toEqual([{ node: 2, gpus: 4 }]);
    expect(placeJob(pool([0, 8, 6, 8, 6]), 12)).toEqual([
      { node: 1, gpus: 8 },
      { node: 2, gpus: 4 },
    ]);
  });

  it("a job larger than any node takes fully free whole nodes, all or nothing", () => {
    expect(placeJob(pool([8, 7, 8, 8]), 16)).toEqual([
      { node: 0, gpus: 8 },
      { node: 2, gpus: 8 },
    ]);
    expect(placeJob(pool([8, 7, 7, 7]), 16)).toBeNull();
  });

  it("a remainder goes on the best-fitting other node, never on a chosen whole node", () => {
    expect(placeJob(pool([8, 8, 3, 5]), 12)).toEqual([
      { node: 0, gpus: 8 },
      { node: 3, gpus: 4 },
    ]);
    expect(placeJob(pool([8, 8]), 12)).toEqual([
      { node: 0, gpus: 8 },
      { node: 1, gpus: 4 },
    ]);
    expect(placeJob(pool([8]), 12)).toBeNull();
  });

  it("skips draining and down nodes and excluded (reserved) ones", () => {
    expect(placeJob(pool([8, 8, 8], 8, ["draining", "down", "healthy"]), 4)).toEqual([
      { node: 2, gpus: 4 },
    ]);
    expect(placeJob(pool([8, 8]), 4, Uint8Array.from([1, 0]))).toEqual([{ node: 1, gpus: 4 }]);
  });
});

describe("canEverPlace", () => {
  it("a job larger than the cluster can never be placed, whatever the health", () => {
    const nodes: ClusterNodeState[] = [
      { index: 0, gpus: 8, health: "down" },
      { index: 1, gpus: 8, health: "healthy" },
    ];
    expect(canEverPlace(nodes, 16)).toBe(true);
    expect(canEverPlace(nodes, 17)).toBe(false);
  });

  it("the fit check answers as placeJob does on the same nodes, healthy and empty", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(2, 4, 6, 8), { minLength: 0, maxLength: 6 }),
        fc.integer({ min: 1, max: 60 }),
        (sizes, gpus) => {
          const nodes = sizes.map((size, index) => ({
            index,
            gpus: size,
            health: "healthy" as const,
          }));
          expect(createFitCheck(nodes)(gpus)).toBe(placeJob(createGpuPool(nodes), gpus) !== null);
        },
      ),
    );
  });

  it("throws on duplicate node indices (a broken invariant)", () => {
    expect(() =>
      createGpuPool([
        { index: 0, gpus: 8, health: "healthy" },
        { index: 0, gpus: 8, health: "healthy" },
      ]),
    ).toThrow(RangeError);
  });
});

describe("freeGpuBounds and mayPlaceWithin", () => {
  it("count healthy nodes only: free GPUs, the most on one node, the wholly free full-size nodes", () => {
    const nodes: ClusterNodeState[] = [
      { index: 0, gpus: 8, health: "healthy" },
      { index: 1, gpus: 8, health: "draining" },
      { index: 2, gpus: 4, health: "healthy" },
      { index: 3, gpus: 8, health: "healthy" },
    ];
    const bounds = freeGpuBounds(nodes, [8, 8, 4, 3]);
    expect(bounds).toEqual({
      nodeSizeGpus: 8,
      usableFreeGpus: 15,
      maxNodeFreeGpus: 8,
      wholeFreeNodes: 1,
    });
    expect(mayPlaceWithin(bounds, 8)).toBe(true);
    expect(mayPlaceWithin(bounds, 12)).toBe(true);
    // Two whole nodes, and 16 GPUs in all, are not there.
    expect(mayPlaceWithin(bounds, 16)).toBe(false);
    expect(mayPlaceWithin({ ...bounds, maxNodeFreeGpus: 4, wholeFreeNodes: 0 }, 5)).toBe(false);
  });

  it("rule a job out only when placeJob finds no placement (property)", () => {
    const nodeArbitrary = fc.record({
      gpus: fc.constantFrom(4, 8),
      health: fc.constantFrom("healthy", "healthy", "draining", "down"),
      used: fc.integer({ min: 0, max: 8 }),
    });
    fc.assert(
      fc.property(
        fc.array(nodeArbitrary, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 40 }),
        (specs, gpus) => {
          const nodes = specs.map((spec, index) => ({
            index,
            gpus: spec.gpus,
            health: spec.health as ClusterNodeState["health"],
          }));
          const free = specs.map((spec) => Math.max(0, spec.gpus - spec.used));
          const gpuPool = createGpuPool(nodes);
          free.forEach((gpusFree, position) => (gpuPool.free[position] = gpusFree));
          if (!mayPlaceWithin(freeGpuBounds(nodes, free), gpus)) {
            expect(placeJob(gpuPool, gpus)).toBeNull();
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
