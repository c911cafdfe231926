import { describe, expect, it } from "vitest";
import { createTickCache } from "./tick-cache";

describe("createTickCache", () => {
  it("computes once per version and age, shares one computation, forgets failures", async () => {
    let nowMs = 0;
    let computed = 0;
    const cache = createTickCache<number>(2000, () => nowMs);
    const compute = async () => ++computed;
    const [a, b] = await Promise.all([
      cache.get("h100", "t1", compute),
      cache.get("h100", "t1", compute),
    ]);
    expect([a, b, computed]).toEqual([1, 1, 1]);
    nowMs = 1999;
    expect(await cache.get("h100", "t1", compute)).toBe(1);
    expect(await cache.get("h100", "t2", compute)).toBe(2);
    nowMs = 4000;
    expect(await cache.get("h100", "t2", compute)).toBe(3);
    expect(await cache.get("b200", "t2", compute)).toBe(4);
    await expect(cache.get("x", "t", () => Promise.reject(new Error("db down")))).rejects.toThrow(
      "db down",
    );
    expect(await cache.get("x", "t", compute)).toBe(5);
  });
});
