import { describe, expect, it } from "vitest";
import { formatDurationSec, formatHumanDuration, parseDurationSec } from "./duration";

describe("parseDurationSec", () => {
  it.each([
    [90, 90],
    ["90s", 90],
    ["15m", 900],
    ["8h", 28_800],
    ["7d", 604_800],
    ["1w", 604_800],
    ["1.5h", 5400],
    ["120", 120],
    [0, 0],
    ["11h30m", 41_400],
    ["2d12h", 216_000],
    ["1w2d", 777_600],
    ["2h 05m", 7500],
    ["3d 4h", 273_600],
    ["1:30:00", 5400],
    ["90:00", 5400],
    ["2-12", 216_000],
    ["2-12:30", 217_800],
    ["1-00:00:30", 86_430],
  ])("reads %j as %d seconds", (input, expected) => {
    expect(parseDurationSec(input)).toBe(expected);
  });

  it.each([
    ["-5m"],
    ["8 hours"],
    ["h"],
    [""],
    ["30m1h"],
    ["1h1h"],
    ["1.5h30m"],
    ["1 h"],
    [":30"],
    ["1:2:3:4"],
    ["-1:00"],
    ["1-"],
    [-1],
    [Number.NaN],
    [Infinity],
  ])("refuses %j", (input) => {
    expect(parseDurationSec(input)).toBeNull();
  });
});

describe("formatDurationSec", () => {
  it("writes the largest exact unit", () => {
    expect(formatDurationSec(604_800)).toBe("7d");
    expect(formatDurationSec(28_800)).toBe("8h");
    expect(formatDurationSec(900)).toBe("15m");
    expect(formatDurationSec(90)).toBe("90s");
    expect(formatDurationSec(0)).toBe("0s");
  });

  it("round-trips through parseDurationSec", () => {
    for (const sec of [0, 1, 59, 60, 3599, 3600, 86_399, 86_400, 1.5]) {
      expect(parseDurationSec(formatDurationSec(sec))).toBe(sec);
    }
  });
});

describe("formatHumanDuration", () => {
  it("writes two units at most", () => {
    expect(formatHumanDuration(45)).toBe("45s");
    expect(formatHumanDuration(7500)).toBe("2h 05m");
    expect(formatHumanDuration(273_900)).toBe("3d 4h");
  });
});
