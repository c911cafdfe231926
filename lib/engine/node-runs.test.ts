import { describe, expect, it } from "vitest";
import {
  beginNodeRunsPass,
  createNodeRuns,
  markAllNodeRunsStale,
  markNodeRunsStale,
  RELEASE,
  touchNodeRuns,
  wholeNodeRelease,
  wholeNodeReleaseAt,
  type NodeRuns,
} from "./node-runs";

/** The release time the summary gives, or NaN when it cannot tell. */
function releaseAtOrNaN(
  nodeRuns: NodeRuns,
  position: number,
  jobRank: number,
  nowSec: number,
  cutoffSec: number,
): number {
  const release = wholeNodeRelease(nodeRuns, position, jobRank, nowSec);
  return release === RELEASE.unknown
    ? Number.NaN
    : wholeNodeReleaseAt(nodeRuns, release, position, nowSec, cutoffSec);
}

type Entry = { isAllocated: boolean; rank: number; protectedUntilSec: number; run: unknown };

const allocated = (rank: number, protectedUntilSec: number): Entry => ({
  isAllocated: true,
  rank,
  protectedUntilSec,
  run: {},
});
const unallocated: Entry = { isAllocated: false, rank: 9, protectedUntilSec: 0, run: {} };

/** One position holding `entries`, summed up for a pass at `nowSec`. */
function summed(entries: Entry[]) {
  const nodeRuns = createNodeRuns(1);
  const held = [entries.map((_, index) => index)];
  beginNodeRunsPass(nodeRuns, entries, held);
  return { nodeRuns, held };
}

describe("whole-node release from the runs summed up per node", () => {
  it("is infinite (the cutoff) when an allocated run ranks at or above the job", () => {
    const { nodeRuns } = summed([allocated(4, 900), allocated(2, 900)]);
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, Infinity)).toBe(Infinity);
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, 5000)).toBe(5000);
  });

  it("is the latest protection end when every allocated run is protected and ranked below", () => {
    const { nodeRuns } = summed([allocated(4, 900), allocated(3, 1500), unallocated]);
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, Infinity)).toBe(1500);
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, 1200)).toBe(1200);
    // Ranks are kept as they are: 2.5 ranks below 2.
    expect(releaseAtOrNaN(summed([allocated(2.5, 900)]).nodeRuns, 0, 2, 600, Infinity)).toBe(900);
  });

  it("is now when only unallocated runs hold the node", () => {
    const { nodeRuns } = summed([unallocated, unallocated]);
    expect(releaseAtOrNaN(nodeRuns, 0, 1, 600, Infinity)).toBe(600);
  });

  it("cannot tell (NaN) for an unprotected allocated run the share guard may shield", () => {
    const { nodeRuns } = summed([allocated(4, 600), allocated(3, 1500)]);
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, Infinity)).toBeNaN();
  });

  it("cannot tell a node touched in this pass, and can again in the next", () => {
    const { nodeRuns, held } = summed([allocated(4, 900)]);
    touchNodeRuns(nodeRuns, 0);
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, Infinity)).toBeNaN();
    beginNodeRunsPass(nodeRuns, nodeRuns.entries, held);
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, Infinity)).toBe(900);
  });

  it("keeps its sums until the node is marked stale, then sums the runs as they are", () => {
    const entries = [allocated(4, 900), allocated(3, 1500)];
    const { nodeRuns } = summed(entries);
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, Infinity)).toBe(1500);
    entries[1]!.run = null;
    entries[0]!.rank = 1;
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, Infinity)).toBe(1500);
    markNodeRunsStale(nodeRuns, 0);
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, Infinity)).toBe(Infinity);
    entries[0]!.rank = 5;
    markAllNodeRunsStale(nodeRuns);
    expect(releaseAtOrNaN(nodeRuns, 0, 2, 600, Infinity)).toBe(900);
  });
});
