import { describe, expect, it } from "vitest";
import { drainEmptiedAtSec, spansByNode } from "./in-service";

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

describe("spansByNode", () => {
  it("lists a run under each node it held GPUs on", () => {
    const byNode = spansByNode([{ startSec: 0, endSec: 60, nodes: [2, 5] }]);
    expect([...byNode.keys()]).toEqual([2, 5]);
    expect(byNode.get(5)).toEqual([{ startSec: 0, endSec: 60 }]);
  });
});
