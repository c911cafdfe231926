import { describe, expect, it } from "vitest";
import { formatRatioPair } from "./ratio-pair";

describe("formatRatioPair", () => {
  it("whole percentages when they differ", () => {
    expect(formatRatioPair(0.92, 1.3)).toEqual({ higher: "92%", lower: "130%", level: null });
  });

  it("equal whole percentages: as many decimals as tell them apart, both alike", () => {
    expect(formatRatioPair(1.004, 1.005)).toEqual({
      higher: "100.4%",
      lower: "100.5%",
      level: null,
    });
    expect(formatRatioPair(1.0239, 1.024)).toEqual({
      higher: "102.39%",
      lower: "102.40%",
      level: null,
    });
    // The audit's pair: 102% and 102% before, equal to two decimals too.
    expect(formatRatioPair(1.02396, 1.02403)).toEqual({
      higher: "102.396%",
      lower: "102.403%",
      level: null,
    });
  });

  it("level beyond three decimals, or exactly: whole percentages and how they are level", () => {
    expect(formatRatioPair(1.0000001, 1.0000004)).toEqual({
      higher: "100%",
      lower: "100%",
      level: "rounded",
    });
    expect(formatRatioPair(0, 0)).toEqual({ higher: "0%", lower: "0%", level: "exact" });
  });

  it("no share on either side: no decimals, never level", () => {
    expect(formatRatioPair(null, 0.5)).toEqual({ higher: "no share", lower: "50%", level: null });
    expect(formatRatioPair(null, null)).toEqual({
      higher: "no share",
      lower: "no share",
      level: null,
    });
  });
});
