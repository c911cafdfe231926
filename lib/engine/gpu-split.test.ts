import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitGpus, type GpuSplit, type SplitNode, type SplitRun } from "./gpu-split";

function partsOf(split: GpuSplit): number {
  return (
    split.allocatedGpus +
    split.unallocatedGpus +
    split.idleGpus +
    split.drainingGpus +
    split.downGpus
  );
}

describe("splitGpus", () => {
  it("counts a run on a draining node once, under draining, on a cluster like b300", () => {
    // 11 nodes of 8 = 88 GPUs; node 9 drains and node 10 is down, both still holding runs.
    const nodes: SplitNode[] = Array.from({ length: 11 }, (_, index) => ({
      index,
      gpus: 8,
      health: index === 9 ? "draining" : index === 10 ? "down" : "healthy",
    }));
    const runs: SplitRun[] = [
      ...Array.from({ length: 9 }, (_, node) => ({
        placement: [{ node, gpus: 8 }],
        isAllocated: true,
      })),
      { placement: [{ node: 9, gpus: 8 }], isAllocated: true },
      { placement: [{ node: 10, gpus: 4 }], isAllocated: false },
    ];
    expect(splitGpus(nodes, runs)).toEqual({
      totalGpus: 88,
      allocatedGpus: 72,
      unallocatedGpus: 0,
      idleGpus: 0,
      drainingGpus: 8,
      drainingBusyGpus: 8,
      downGpus: 8,
      busyGpus: 84,
    });
  });

  it("splits one run across a healthy and a draining node by where its slices sit", () => {
    const split = splitGpus(
      [
        { index: 0, gpus: 8, health: "healthy" },
        { index: 1, gpus: 8, health: "draining" },
      ],
      [
        {
          placement: [
            { node: 0, gpus: 2 },
            { node: 1, gpus: 4 },
          ],
          isAllocated: true,
        },
      ],
    );
    expect(split).toEqual({
      totalGpus: 16,
      allocatedGpus: 2,
      unallocatedGpus: 0,
      idleGpus: 6,
      drainingGpus: 8,
      drainingBusyGpus: 4,
      downGpus: 0,
      busyGpus: 6,
    });
  });

  it("caps an over-full node at its size and ignores slices on unknown nodes", () => {
    const split = splitGpus(
      [{ index: 0, gpus: 4, health: "healthy" }],
      [
        { placement: [{ node: 0, gpus: 3 }], isAllocated: false },
        { placement: [{ node: 0, gpus: 3 }], isAllocated: true },
        { placement: [{ node: 7, gpus: 8 }], isAllocated: true },
      ],
    );
    expect(split).toMatchObject({ allocatedGpus: 3, unallocatedGpus: 1, idleGpus: 0 });
    expect(partsOf(split)).toBe(4);
  });

  it("gives all zeros for a cluster with no nodes", () => {
    expect(partsOf(splitGpus([], []))).toBe(0);
  });

  it("always adds up to the cluster's GPUs, whatever runs where (property)", () => {
    const health = fc.constantFrom<SplitNode["health"]>("healthy", "draining", "down");
    fc.assert(
      fc.property(
        fc.array(fc.record({ gpus: fc.integer({ min: 0, max: 16 }), health }), { maxLength: 12 }),
        fc.array(
          fc.record({
            placement: fc.array(
              fc.record({
                node: fc.integer({ min: 0, max: 13 }),
                gpus: fc.integer({ min: 1, max: 16 }),
              }),
              { minLength: 1, maxLength: 3 },
            ),
            isAllocated: fc.boolean(),
          }),
          { maxLength: 20 },
        ),
        (shapes, runs) => {
          const nodes = shapes.map((shape, index) => ({ index, ...shape }));
          const split = splitGpus(nodes, runs);
          const total = nodes.reduce((sum, node) => sum + node.gpus, 0);
          expect(split.totalGpus).toBe(total);
          expect(partsOf(split)).toBe(total);
          expect(split.drainingBusyGpus).toBeLessThanOrEqual(split.drainingGpus);
          expect(split.busyGpus).toBeLessThanOrEqual(total);
          for (const part of Object.values(split)) expect(part).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
