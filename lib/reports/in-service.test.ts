import { describe, expect, it } from "vitest";
import { drainEmptiedAtSec, inServiceSpans, spansByNode } from "./in-service";

describe("drainEmptiedAtSec", () => {
  it("is the end of the last run overlapping the drain, the drain's start without one", () => {
    const spans = [
      { startSec: 0, endSec: 1800 },
      { startSec: 0, endSec: 900 },
      { startSec: 0, endSec: 500 }, // ended before the drain
      { startSec: 8000, endSec: 9000 }, // after the drain's end
    ];
    expect(drainEmptiedAtSec(spans, 600, 7200)).toBe(1800);
    expect(drainEmptiedAtSec([], 600, 7200)).toBe(600);
  });

  it("is Infinity while a run goes on", () => {
    expect(drainEmptiedAtSec([{ startSec: 0, endSec: Infinity }], 600, 7200)).toBe(Infinity);
  });
});

describe("inServiceSpans", () => {
  it("keeps healthy spans whole, cuts a drain where the node empties, drops down spans", () => {
    const changes = [
      { atSec: 600, health: "draining" as const },
      { atSec: 900, health: "draining" as const }, // no change
      { atSec: 3600, health: "down" as const },
      { atSec: 7200, health: "healthy" as const },
    ];
    expect(inServiceSpans(changes, [{ startSec: 0, endSec: 1800 }])).toEqual([
      { startSec: Number.NEGATIVE_INFINITY, endSec: 600 },
      { startSec: 600, endSec: 1800 },
      { startSec: 7200, endSec: Number.POSITIVE_INFINITY },
    ]);
  });

  it("leaves out a drain of a node that held nothing", () => {
    expect(inServiceSpans([{ atSec: 600, health: "draining" }], [])).toEqual([
      { startSec: Number.NEGATIVE_INFINITY, endSec: 600 },
    ]);
  });
});

describe("spansByNode", () => {
  it("lists a run under each node it held GPUs on", () => {
    const byNode = spansByNode([
      { startSec: 0, endSec: 60, nodes: [2, 5] },
      { startSec: 30, endSec: null, nodes: [5] },
    ]);
    expect([...byNode.keys()]).toEqual([2, 5]);
    expect(byNode.get(5)).toEqual([
      { startSec: 0, endSec: 60 },
      { startSec: 30, endSec: Number.POSITIVE_INFINITY },
    ]);
  });
});
