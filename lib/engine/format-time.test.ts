import { describe, expect, it } from "vitest";
import { formatDuration, formatOffset, formatUtcClock } from "./format-time";

describe("time formatting", () => {
  it("offsets from the epoch", () => {
    expect(formatOffset(7500)).toBe("+2h05m");
    expect(formatOffset(273_900)).toBe("+3d04h05m");
    expect(formatOffset(42)).toBe("+42s");
    expect(formatOffset(600)).toBe("+10m");
    expect(formatOffset(-90)).toBe("-1m");
  });

  it("UTC wall clock from Unix seconds", () => {
    expect(formatUtcClock(1_700_000_000)).toBe("22:13");
    expect(formatUtcClock(0)).toBe("00:00");
    expect(formatUtcClock(-60)).toBe("23:59");
  });

  it("durations in the two largest units", () => {
    expect(formatDuration(7200)).toBe("2 h");
    expect(formatDuration(5400)).toBe("1 h 30 min");
    expect(formatDuration(90_000)).toBe("1 d 1 h");
    expect(formatDuration(45)).toBe("45 s");
    expect(formatDuration(0)).toBe("0 s");
  });
});
