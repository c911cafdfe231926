import { describe, expect, it } from "vitest";
import { roundFulfilment } from "./review-csv";

describe("roundFulfilment", () => {
  it("keeps 4 decimals and never rounds a figure below 1 up to 1, as the page never shows 100.0%", () => {
    expect(roundFulfilment(0.97314)).toBe(0.9731);
    expect(roundFulfilment(0.99996)).toBe(0.9999);
    expect(roundFulfilment(1)).toBe(1);
  });
});
