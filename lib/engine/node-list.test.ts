import { describe, expect, it } from "vitest";
import { formatNodeList, formatNodes } from "./node-list";

describe("formatNodeList", () => {
  it("writes node lists as ranges, sorted, with the caller's separator", () => {
    expect(formatNodeList([9, 3, 4, 5])).toBe("3-5, 9");
    expect(formatNodeList([7, 0, 1, 2, 5, 9, 10], ",")).toBe("0-2,5,7,9-10");
    expect(formatNodeList([3])).toBe("3");
    expect(formatNodeList([])).toBe("");
  });
});

describe("formatNodes", () => {
  it("puts the noun before the ranges", () => {
    expect(formatNodes([5, 3, 4, 9])).toBe("nodes 3-5, 9");
    expect(formatNodes([2])).toBe("node 2");
  });
});
