import type { FreeGpuBounds, GpuPool } from "./placement";

/**
 * The free GPUs of the usable (healthy) positions of a pool, counted as runs come and go, so
 * that a pass has its `FreeGpuBounds` without a look at every node: free GPUs summed, positions
 * per free GPUs (0..G), and positions of G GPUs with all of them free. Kept by standing runs for
 * the usability of the last pass's nodes (`isUsable`), counted anew when the nodes change.
 */
export type UsableFree = {
  /** The usability counted for: a pool's `isUsable`, shared, never written. */
  isUsable: Uint8Array;
  gpus: number;
  /** Usable positions by free GPUs, 0..G (positions below 0, overfilled, are not counted). */
  positionsByFree: Int32Array;
  wholeFreeNodes: number;
};

/**
 * Counts the usable positions of `pool` (its capacity and node size) with `free` GPUs free each.
 *
 * @example countUsableFree(pool, standing.free, pool.isUsable).gpus
 */
export function countUsableFree(
  pool: Pick<GpuPool, "capacity" | "nodeSizeGpus">,
  free: Int32Array,
  isUsable: Uint8Array,
): UsableFree {
  const counted: UsableFree = {
    isUsable,
    gpus: 0,
    positionsByFree: new Int32Array(pool.nodeSizeGpus + 1),
    wholeFreeNodes: 0,
  };
  for (let position = 0; position < free.length; position += 1) {
    if (isUsable[position]) changeUsableFree(counted, pool, position, null, free[position]!);
  }
  return counted;
}

/**
 * Counts a usable position's free GPUs going from `before` (null: not counted yet) to `after`.
 */
export function changeUsableFree(
  counted: UsableFree,
  pool: Pick<GpuPool, "capacity" | "nodeSizeGpus">,
  position: number,
  before: number | null,
  after: number,
): void {
  const size = pool.nodeSizeGpus;
  const byFree = counted.positionsByFree;
  const isWhole = pool.capacity[position] === size;
  if (before !== null) {
    counted.gpus -= before;
    if (before >= 0 && before <= size) byFree[before] = byFree[before]! - 1;
    if (isWhole && before === size) counted.wholeFreeNodes -= 1;
  }
  counted.gpus += after;
  if (after >= 0 && after <= size) byFree[after] = byFree[after]! + 1;
  if (isWhole && after === size) counted.wholeFreeNodes += 1;
}

/**
 * The bounds of free GPUs the counts give: what a look at every usable position would give
 * (`freeGpuBounds`) while none is below 0. A new object, for the pass to change.
 *
 * @example mayPlaceWithin(usableFreeBounds(counted, 8), 4)
 */
export function usableFreeBounds(counted: UsableFree, nodeSizeGpus: number): FreeGpuBounds {
  let maxNodeFreeGpus = nodeSizeGpus;
  while (maxNodeFreeGpus > 0 && counted.positionsByFree[maxNodeFreeGpus] === 0) {
    maxNodeFreeGpus -= 1;
  }
  return {
    nodeSizeGpus,
    usableFreeGpus: counted.gpus,
    maxNodeFreeGpus,
    wholeFreeNodes: counted.wholeFreeNodes,
  };
}
