import { describe, expect, it } from "vitest";
import {
  describePlacement,
  formatExactDuration,
  minRuntimeProblem,
  readMinutes,
} from "./request-preview";

describe("describePlacement", () => {
  it("12 GPUs on 8-GPU nodes: one whole node plus 4 on another, as placement does", () => {
    expect(describePlacement(12, 8)).toBe(
      "1 whole node (8 GPUs) plus 4 GPUs on another node: 2 nodes, started together",
    );
  });
  it("a multiple of the node size, exactly one node, and less than a node", () => {
    expect(describePlacement(16, 8)).toBe("2 whole nodes (16 GPUs), started together");
    expect(describePlacement(8, 8)).toBe("one whole node (8 GPUs)");
    expect(describePlacement(1, 8)).toBe("1 GPU on one node of 8");
  });
});

describe("formatExactDuration", () => {
  it("keeps every second", () => {
    expect(formatExactDuration(1830)).toBe("30 min 30 s");
    expect(formatExactDuration(7200)).toBe("2 h");
    expect(formatExactDuration(3900)).toBe("1 h 5 min");
    expect(formatExactDuration(0)).toBe("0 s");
    expect(formatExactDuration(90061)).toBe("1 d 1 h 1 min 1 s");
  });
});

describe("readMinutes", () => {
  it("30.5 min is 1830 s, not 30 min; 0.1 min is 6 s despite floating point", () => {
    expect(readMinutes("30.5")).toEqual({ ok: true, sec: 1830 });
    expect(readMinutes("0.1")).toEqual({ ok: true, sec: 6 });
  });
  it("not whole seconds: refused with the value and the two nearest whole seconds", () => {
    expect(readMinutes("30.51")).toEqual({
      ok: false,
      sec: 1830.6,
      message:
        "Minimum runtime must be whole seconds: 30.51 min is 1,830.6 s. The nearest whole seconds are 1,830 s and 1,831 s.",
    });
  });
  it("empty, text and negative values", () => {
    expect(readMinutes("").ok).toBe(false);
    expect(readMinutes("abc")).toMatchObject({
      message: "Minimum runtime must be a number of minutes.",
    });
    expect(readMinutes("-1")).toMatchObject({
      message: "Minimum runtime cannot be negative: enter 0 minutes or more.",
    });
  });
});

describe("minRuntimeProblem", () => {
  const h100 = { name: "h100", maxMinRuntimeSec: 28_800 };
  it("names the minutes typed and the reason: empty, negative, not a number", () => {
    expect(minRuntimeProblem("", h100)).toBe(
      "Minimum runtime is required: enter a number of minutes (0 for unallocated work).",
    );
    expect(minRuntimeProblem("  ", h100)).toBe(
      "Minimum runtime is required: enter a number of minutes (0 for unallocated work).",
    );
    expect(minRuntimeProblem("-5", h100)).toBe(
      "Minimum runtime cannot be negative: enter 0 minutes or more.",
    );
    expect(minRuntimeProblem("1e999", h100)).toBe("Minimum runtime must be a number of minutes.");
  });
  it("above the cluster's maximum: says the maximum in minutes; at it: no problem", () => {
    expect(minRuntimeProblem("600", h100)).toBe(
      "Minimum runtime is at most 480 minutes on h100 (8 h).",
    );
    expect(minRuntimeProblem("480", h100)).toBeNull();
    expect(minRuntimeProblem("0", h100)).toBeNull();
    expect(minRuntimeProblem("600")).toBeNull();
  });
  it("not whole seconds: the reading's own message", () => {
    expect(minRuntimeProblem("30.51", h100)).toMatch(
      /^Minimum runtime must be whole seconds: 30.51 min is 1,830.6 s\./,
    );
  });
});
