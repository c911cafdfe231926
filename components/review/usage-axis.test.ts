import { describe, expect, it } from "vitest";
import { toUsageBars } from "./review-format";
import {
  cappedAxisTicks,
  capUsageBars,
  listUsagePercents,
  usageAxisCapPercent,
} from "./usage-axis";

describe("usageAxisCapPercent", () => {
  it("caps at 300% when one bar of 1297.5% would squeeze the others", () => {
    expect(usageAxisCapPercent([20, 50, 80, 110, 1297.5])).toBe(300);
  });

  it("caps at twice the median, rounded up to a hundred, when typical bars are high", () => {
    expect(usageAxisCapPercent([240, 260, 280, 2000])).toBe(600);
  });

  it("does not cap when every bar fits (edge: a bar exactly at the cap)", () => {
    expect(usageAxisCapPercent([50, 120, 300])).toBeNull();
    expect(usageAxisCapPercent([600, 700, 800])).toBeNull();
  });

  it("does not cap an empty chart", () => {
    expect(usageAxisCapPercent([])).toBeNull();
  });
});

describe("capUsageBars", () => {
  const bars = toUsageBars(
    [
      { id: "a", name: "lm" },
      { id: "b", name: "vision" },
    ],
    [
      { cluster: "b300", ratios: { a: 12.975, b: 0.5 } },
      { cluster: "h100", ratios: { a: null, b: 1.25 } },
    ],
  );

  it("lists the percents of bars with a share, leaving out a cluster without one", () => {
    expect(listUsagePercents(bars)).toEqual([1297.5, 50, 125]);
  });

  it("ends a bar past the cap at the cap, labelled with its real figure and »", () => {
    const [lm, vision] = capUsageBars(bars, 300);
    expect(lm?.percentByCluster).toEqual({ b300: 300, h100: 0 });
    expect(lm?.labelByCluster).toEqual({ b300: `${lm?.textByCluster.b300}\u00a0»`, h100: "—" });
    expect(lm?.textByCluster.b300).toBe(bars[0]?.textByCluster.b300);
    expect(vision?.percentByCluster).toEqual({ b300: 50, h100: 125 });
    expect(vision?.labelByCluster).toEqual(vision?.textByCluster);
  });

  it("leaves every bar as it is without a cap", () => {
    expect(capUsageBars(bars, null)[0]?.percentByCluster.b300).toBe(1297.5);
  });
});

describe("cappedAxisTicks", () => {
  it("ticks every 100% up to 600%, wider past it, and ends on the cap", () => {
    expect(cappedAxisTicks(300)).toEqual([0, 100, 200, 300]);
    expect(cappedAxisTicks(600)).toEqual([0, 100, 200, 300, 400, 500, 600]);
    expect(cappedAxisTicks(800)).toEqual([0, 200, 400, 600, 800]);
    // The caption says the axis ends at the cap: an odd hundred is a tick too.
    expect(cappedAxisTicks(700)).toEqual([0, 200, 400, 600, 700]);
    expect(cappedAxisTicks(1300)).toEqual([0, 300, 600, 900, 1200, 1300]);
  });
});
