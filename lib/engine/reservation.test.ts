import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGpuPool, placementShape, type GpuPool } from "./placement";
import { createReservationScratch, releaseAtSec } from "./node-readiness";
import { canReserve, reserveNodes, surelyReserved, reservesOtherThan } from "./reservation";
import type { HeldRun } from "./node-runs";

// One working memory for every request, as a scheduler reuses its own from pass to pass.
const scratch = createReservationScratch();

/** Reservation as ADR 010 words it, with no shortcut: every node's ready time, a full sort. */
function reserveNaively(
  pool: GpuPool,
  gpus: number,
  jobRank: number,
  runs: HeldRun[],
  held: number[][],
  nowSec: number,
  isShielded: (index: number) => boolean,
) {
  const readyAt = (position: number, need: number): number => {
    let have = pool.free[position]!;
    if (have >= need) return nowSec;
    const releases = held[position]!.filter((index) => !runs[index]!.isGone)
      .map((index) => ({
        atSec: releaseAtSec(runs[index]!, jobRank, nowSec, isShielded(index)),
        gpus: runs[index]!.slices.find((slice) => slice.position === position)!.gpus,
      }))
      .sort((a, b) => a.atSec - b.atSec || a.gpus - b.gpus);
    for (const release of releases) {
      have += release.gpus;
      if (have >= need) return release.atSec;
    }
    return Number.POSITIVE_INFINITY;
  };
  const shape = placementShape(gpus, pool.nodeSizeGpus);
  const positions = [...pool.free.keys()].filter((position) => pool.isUsable[position]);
  const options = positions
    .filter((position) => pool.capacity[position] === pool.nodeSizeGpus)
    .map((position) => ({ position, atSec: readyAt(position, pool.nodeSizeGpus) }))
    .sort((a, b) => a.atSec - b.atSec || a.position - b.position);
  let whole = options.slice(0, shape.wholeNodes);
  if (whole.length < shape.wholeNodes) return null;
  // Ready only later than now: the nodes ready by then with the fewest free GPUs (ADR 092).
  const wholeReadySec = whole.at(-1)?.atSec ?? nowSec;
  if (Number.isFinite(wholeReadySec) && wholeReadySec > nowSec) {
    whole = options
      .filter((option) => option.atSec <= wholeReadySec)
      .sort((a, b) => pool.free[a.position]! - pool.free[b.position]! || a.position - b.position)
      .slice(0, shape.wholeNodes);
  }
  const chosen = [...whole];
  if (shape.remainderGpus > 0) {
    const rest = positions
      .filter((position) => !whole.some((option) => option.position === position))
      .filter((position) => pool.capacity[position]! >= shape.remainderGpus)
      .map((position) => ({ position, atSec: readyAt(position, shape.remainderGpus) }))
      .sort((a, b) => a.atSec - b.atSec || a.position - b.position);
    if (rest.length === 0) return null;
    chosen.push(rest[0]!);
  }
  const latest = Math.max(...chosen.map((option) => option.atSec));
  return {
    nodes: chosen.map((option) => option.position).sort((a, b) => a - b),
    readyAtSec: Number.isFinite(latest) ? latest : null,
  };
}

// Mostly healthy full-size nodes, so gang jobs often have a choice of nodes.
const nodeSpec = fc.record({
  gpus: fc.constantFrom(4, 8, 8, 8),
  isHealthy: fc.constantFrom(true, true, true, false),
});
const runFields = {
  node: fc.nat(),
  gpus: fc.integer({ min: 1, max: 8 }),
  isAllocated: fc.boolean(),
  rank: fc.integer({ min: 1, max: 4 }),
  protectedUntilSec: fc.constantFrom<number>(0, 50, 100, 200),
  isGone: fc.boolean(),
  isShielded: fc.boolean(),
  /** Nodes the run spans, from `node` on (its GPUs on each): mostly one. */
  span: fc.constantFrom(1, 1, 1, 2, 3),
};
const runSpec = fc.record(runFields);

type ArbitraryValue<A> = A extends fc.Arbitrary<infer T> ? T : never;

/** How many positions `surelyReserved` gave in the checks below. */
const sureChecks = { reserved: 0 };

/**
 * Checks `reserveNodes`, `canReserve`, `reservesOtherThan` and `surelyReserved` against the
 * naive rule.
 */
function checkAgainstNaive(
  nodes: ArbitraryValue<typeof nodeSpec>[],
  specs: ArbitraryValue<typeof runSpec>[],
  gpus: number,
  jobRank: number,
): void {
  const pool = createGpuPool(
    nodes.map((spec, index) => ({
      index,
      gpus: spec.gpus,
      health: spec.isHealthy ? "healthy" : "down",
    })),
  );
  const runs: HeldRun[] = [];
  const held: number[][] = nodes.map(() => []);
  for (const spec of specs) {
    const first = spec.node % nodes.length;
    const positions = Array.from({ length: spec.span }, (_, i) => (first + i) % nodes.length);
    if (new Set(positions).size < spec.span) continue;
    if (positions.some((position) => pool.free[position]! < spec.gpus)) continue;
    for (const position of positions) {
      if (!spec.isGone) pool.free[position] = pool.free[position]! - spec.gpus;
      held[position]!.push(runs.length);
    }
    runs.push({ ...spec, slices: positions.map((position) => ({ position, gpus: spec.gpus })) });
  }
  // The share guard keeps some runs; reserveNodes may ask it only of runs it could keep.
  const isShielded = (index: number): boolean => {
    const shielded = runs[index] as HeldRun & { isShielded: boolean };
    return shielded.isShielded;
  };
  const request = {
    pool,
    gpus,
    jobRank,
    runs,
    heldByPosition: held,
    nowSec: 10,
    isShielded,
    scratch,
  };
  const reservation = reserveNodes(request);
  const expected = reserveNaively(pool, gpus, jobRank, runs, held, 10, isShielded);
  expect(canReserve(pool, gpus, scratch)).toBe(expected !== null);
  expect(reservation && { nodes: reservation.nodes, readyAtSec: reservation.readyAtSec }).toEqual(
    expected,
  );
  // Gang jobs: the nodes surely reserved, found without choosing them all, are reserved.
  if (gpus > pool.nodeSizeGpus) {
    const sure = surelyReserved(request);
    // Only a job that could be reserved has nodes surely reserved.
    if (expected === null) expect(sure).toBeNull();
    // Written into an array given, whatever it held.
    const into = new Uint8Array(nodes.length).fill(1);
    expect(surelyReserved(request, into)).toEqual(sure);
    if (sure) expect(surelyReserved(request, into)).toBe(into);
    // The same for a request asked first here: what one works out, the other reads.
    const fresh = { ...request };
    expect(surelyReserved(fresh)).toEqual(sure);
    expect(reserveNodes(fresh)).toEqual(reservation);
    for (let position = 0; position < nodes.length; position += 1) {
      if (sure?.[position] !== 1) continue;
      sureChecks.reserved += 1;
      expect(reservation?.isExcluded[position]).toBe(1);
    }
    return;
  }
  // One-node jobs: whether each node is outside the reservation, without choosing it.
  for (let position = 0; position < nodes.length; position += 1) {
    const verdict = reservesOtherThan(request, position);
    const isReserved = reservation?.isExcluded[position] === 1;
    expect(verdict.isOutside).toBe(!isReserved);
    if (!verdict.isOutside) expect(verdict.reservation).toEqual(reservation);
  }
}

describe("reserveNodes", () => {
  it("gives each reservation its own exclusions, however many are made", () => {
    const pool = createGpuPool([0, 1, 2].map((index) => ({ index, gpus: 8, health: "healthy" })));
    pool.free.set([0, 0, 0]);
    const request = {
      pool,
      gpus: 8,
      jobRank: 1,
      runs: [],
      heldByPosition: [[], [], []],
      nowSec: 0,
      scratch,
    };
    // More than the bytes of one shared buffer, so that reservations come from several.
    const made = Array.from({ length: 30_000 }, () => reserveNodes(request)!);
    made[0]!.isExcluded[1] = 1;
    made[1]!.isExcluded.fill(1);
    expect([...made[0]!.isExcluded]).toEqual([1, 1, 0]);
    expect([...made[2]!.isExcluded]).toEqual([1, 0, 0]);
    expect(made.every((reservation) => reservation.isExcluded.length === 3)).toBe(true);
    expect(made.slice(2).every((reservation) => reservation.isExcluded[0] === 1)).toBe(true);
    expect(made.slice(2).every((reservation) => reservation.isExcluded[1] === 0)).toBe(true);
  });

  it("reserves what the rule without shortcuts reserves, and canReserve says when it can", () => {
    fc.assert(
      fc.property(
        fc.array(nodeSpec, { minLength: 1, maxLength: 6 }),
        fc.array(runSpec, { maxLength: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 4 }),
        checkAgainstNaive,
      ),
      { numRuns: 2000 },
    );
  });

  it("chooses among many nodes as the rule does, for gang jobs of more than eight nodes too", () => {
    sureChecks.reserved = 0;
    fc.assert(
      fc.property(
        fc.array(nodeSpec, { minLength: 8, maxLength: 40 }),
        // Many runs ending their protection at many moments: ties are rare then.
        fc.array(fc.record({ ...runFields, protectedUntilSec: fc.integer({ min: 0, max: 400 }) }), {
          maxLength: 160,
        }),
        fc.integer({ min: 1, max: 240 }),
        fc.integer({ min: 1, max: 4 }),
        checkAgainstNaive,
      ),
      { numRuns: 1000 },
    );
    // surelyReserved gave positions often enough to be tested.
    expect(sureChecks.reserved).toBeGreaterThan(100);
  });

  it("reserves for gang jobs of more nodes than are ready now, many of them ready now", () => {
    // 150 nodes, 100 of them free, for a job of 120 whole nodes: the scan lists more nodes ready
    // now than its first list holds (64). Ready only later, it spares none of the free nodes
    // (it needs them all), and none is surely reserved.
    const nodes = Array.from({ length: 150 }, () => ({ gpus: 8 as const, isHealthy: true }));
    const busy = Array.from({ length: 50 }, (_, i) => ({
      node: 100 + i,
      gpus: 8,
      isAllocated: true,
      rank: 3,
      protectedUntilSec: 100 + i,
      isGone: false,
      isShielded: false,
      span: 1 as const,
    }));
    sureChecks.reserved = 0;
    checkAgainstNaive(nodes, busy, 120 * 8, 1);
    expect(sureChecks.reserved).toBe(0);
    // 90 nodes, all free: every one is ready now, and the lowest 90 of the 150 are surely kept.
    checkAgainstNaive(nodes, busy, 90 * 8, 1);
    expect(sureChecks.reserved).toBe(90);
  });

  it("spares free nodes when busy ones are ready as soon", () => {
    // Nodes 0 and 1 free, nodes 2 and 3 busy until 100, node 4 until 200: a job of two nodes
    // ready only at 100 takes the busy nodes 2 and 3, and the free ones stay free meanwhile.
    const nodes = Array.from({ length: 5 }, () => ({ gpus: 8 as const, isHealthy: true }));
    const busy = [2, 3, 4].map((node) => ({
      node,
      gpus: 8,
      isAllocated: true,
      rank: 3,
      protectedUntilSec: node === 4 ? 200 : 100,
      isGone: false,
      isShielded: false,
      span: 1 as const,
    }));
    const free = [0, 1].map((node) => ({ ...busy[0]!, node, isGone: true }));
    const pool = createGpuPool(nodes.map((_, index) => ({ index, gpus: 8, health: "healthy" })));
    const runs: HeldRun[] = [...busy, ...free].map((spec) => ({
      ...spec,
      slices: [{ position: spec.node, gpus: 8 }],
    }));
    const held = nodes.map((_, position) =>
      runs.flatMap((run, index) => (run.slices[0]!.position === position ? [index] : [])),
    );
    for (const run of busy) pool.free[run.node] = 0;
    // Three whole nodes are ready only at 100 (0, 1, and one busy): the busy ones go first.
    const three = reserveNodes({
      pool,
      gpus: 24,
      jobRank: 1,
      runs,
      heldByPosition: held,
      nowSec: 10,
      scratch,
    });
    expect(three).toMatchObject({ nodes: [0, 2, 3], readyAtSec: 100 });
    // Two nodes are ready now (the free ones): no sparing.
    const two = reserveNodes({
      pool,
      gpus: 16,
      jobRank: 1,
      runs,
      heldByPosition: held,
      nowSec: 10,
      scratch,
    });
    expect(two).toMatchObject({ nodes: [0, 1], readyAtSec: 10 });
  });

  it("breaks ties among the earliest nodes of large gang jobs as the rule does", () => {
    // Healthy full-size nodes and protections ending at a few moments: many nodes ready at the
    // same time, some of them past the job's whole nodes.
    fc.assert(
      fc.property(
        fc.integer({ min: 12, max: 40 }),
        fc.array(
          fc.record({ ...runFields, gpus: fc.constantFrom(4, 8), isGone: fc.constant(false) }),
          { minLength: 20, maxLength: 80 },
        ),
        fc.integer({ min: 9, max: 40 }),
        fc.integer({ min: 1, max: 4 }),
        (nodeCount, specs, wholeNodes, jobRank) => {
          const nodes = Array.from({ length: nodeCount }, () => ({
            gpus: 8 as const,
            isHealthy: true,
          }));
          checkAgainstNaive(nodes, specs, 8 * Math.min(wholeNodes, nodeCount), jobRank);
        },
      ),
      { numRuns: 500 },
    );
  });
});
