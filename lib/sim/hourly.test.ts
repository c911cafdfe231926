import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addToHours, createHourBins, roundFulfilment, roundTo } from "./hourly";

type Interval = [startSec: number, endSec: number, rate: number];

function byAddToHours(hours: number, intervals: readonly Interval[]): Float64Array {
  const bins = new Float64Array(hours);
  for (const [startSec, endSec, rate] of intervals) addToHours(bins, startSec, endSec, rate);
  return bins;
}

function byHourBins(hours: number, intervals: readonly Interval[]): Float64Array {
  const bins = createHourBins(hours);
  for (const [startSec, endSec, rate] of intervals) bins.add(startSec, endSec, rate);
  return bins.finish();
}

describe("createHourBins", () => {
  it("splits an interval over the hours it touches", () => {
    expect([...byHourBins(3, [[1800, 9000, 8]])]).toEqual([14_400, 28_800, 14_400]);
  });

  it("cuts intervals at the last hour and ignores empty ones (edges)", () => {
    const intervals: Interval[] = [
      [0, 100_000, 2],
      [7200, 7200, 5],
      [9000, 3600, 5],
      [20_000, 30_000, 0],
      [50_000, 60_000, 1],
    ];
    expect(byHourBins(4, intervals)).toEqual(byAddToHours(4, intervals));
  });

  it("gives exactly what addToHours gives, whole or fractional times and rates (property)", () => {
    const time = fc.oneof(
      fc.integer({ min: -3600, max: 40_000 }),
      fc.double({ min: -3600, max: 40_000, noNaN: true }),
    );
    const rate = fc.oneof(fc.integer({ min: -4, max: 64 }), fc.double({ min: 0, max: 8 }));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.tuple(time, time, rate), { maxLength: 40 }),
        (hours, intervals) => {
          const expected = byAddToHours(hours, intervals);
          const actual = byHourBins(hours, intervals);
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("roundFulfilment", () => {
  it("rounds as roundTo, but a fulfilment below 1 never to 1", () => {
    expect(roundFulfilment(0.999987, 4)).toBe(0.9999);
    expect(roundFulfilment(0.99994, 4)).toBe(0.9999);
    expect(roundFulfilment(1, 4)).toBe(1);
    // Float noise under 1 is not a shortfall.
    expect(roundFulfilment(1 - 1e-12)).toBe(1);
    expect(roundFulfilment(0.12345, 4)).toBe(roundTo(0.12345, 4));
    expect(roundFulfilment(0.97314)).toBe(0.9731);
  });
});
