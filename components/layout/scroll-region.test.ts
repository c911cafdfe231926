import { describe, expect, it } from "vitest";
import { measureOverflow } from "./scroll-region";

const box = (scrollWidth: number, clientWidth: number, scrollHeight = 100, clientHeight = 100) => ({
  scrollWidth,
  clientWidth,
  scrollHeight,
  clientHeight,
});

describe("measureOverflow", () => {
  it("is null when the content fits, or is one pixel over (rounding)", () => {
    expect(measureOverflow(box(335, 335))).toBeNull();
    expect(measureOverflow(box(336, 335, 101, 100))).toBeNull();
  });

  it("says sideways for a table wider than a phone's box", () => {
    expect(measureOverflow(box(870, 335))).toBe("sideways");
  });

  it("says down for a box given a height, and both when both", () => {
    expect(measureOverflow(box(335, 335, 900, 448))).toBe("down");
    expect(measureOverflow(box(1197, 335, 900, 448))).toBe("sideways and down");
  });
});
