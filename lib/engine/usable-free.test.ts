import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGpuPool, freeGpuBounds } from "./placement";
import type { ClusterNodeState, NodeHealth } from "./types";
import { changeUsableFree, countUsableFree, usableFreeBounds } from "./usable-free";

const nodeArb = fc.record({
  gpus: fc.constantFrom(4, 8),
  health: fc.constantFrom<NodeHealth>("healthy", "healthy", "draining", "down"),
});

describe("usable free GPUs, counted", () => {
  it("give the bounds a look at every node gives, after any changes", () => {
    fc.assert(
      fc.property(
        fc.array(nodeArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 40 }),
        (specs, changes) => {
          const nodes: ClusterNodeState[] = specs.map((spec, index) => ({ index, ...spec }));
          const pool = createGpuPool(nodes);
          const free = pool.capacity.slice();
          const counted = countUsableFree(pool, free, pool.isUsable);
          for (const [at, taken] of changes) {
            const position = at % free.length;
            const before = free[position]!;
            free[position] = taken % (pool.capacity[position]! + 1);
            if (pool.isUsable[position]) {
              changeUsableFree(counted, pool, position, before, free[position]!);
            }
          }
          expect(counted).toEqual(countUsableFree(pool, free, pool.isUsable));
          const byNode = nodes.map((node) => free[pool.positionOf.get(node.index)!]!);
          expect(usableFreeBounds(counted, pool.nodeSizeGpus)).toEqual(
            freeGpuBounds(nodes, byNode),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("count a position below 0 in the sum only, and again once it is back", () => {
    const nodes: ClusterNodeState[] = [
      { index: 0, gpus: 8, health: "healthy" },
      { index: 1, gpus: 8, health: "healthy" },
    ];
    const pool = createGpuPool(nodes);
    const counted = countUsableFree(pool, pool.capacity.slice(), pool.isUsable);
    expect(usableFreeBounds(counted, 8)).toEqual({
      nodeSizeGpus: 8,
      usableFreeGpus: 16,
      maxNodeFreeGpus: 8,
      wholeFreeNodes: 2,
    });
    changeUsableFree(counted, pool, 0, 8, -2);
    expect(counted.gpus).toBe(6);
    expect(Array.from(counted.positionsByFree)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1]);
    changeUsableFree(counted, pool, 0, -2, 3);
    expect(usableFreeBounds(counted, 8)).toEqual({
      nodeSizeGpus: 8,
      usableFreeGpus: 11,
      maxNodeFreeGpus: 8,
      wholeFreeNodes: 1,
    });
  });
});
