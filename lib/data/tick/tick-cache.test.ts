import { describe, expect, it } from "vitest";
import { createTickCache, createVersionMemo, noteLocalTick } from "./tick-cache";

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createTickCache", () => {
  it("computes once per version, shares one computation, forgets failures", async () => {
    let nowMs = 0;
    let computed = 0;
    const cache = createTickCache<number>(2000, { nowMs: () => nowMs });
    const compute = async () => ++computed;
    const [a, b] = await Promise.all([
      cache.get("h100", "t1", compute),
      cache.get("h100", "t1", compute),
    ]);
    expect([a, b, computed]).toEqual([1, 1, 1]);
    nowMs = 1999;
    expect(await cache.get("h100", "t1", compute)).toBe(1);
    expect(await cache.get("h100", "t2", compute)).toBe(2);
    expect(await cache.get("b200", "t2", compute)).toBe(3);
    await expect(cache.get("x", "t", () => Promise.reject(new Error("db down")))).rejects.toThrow(
      "db down",
    );
    expect(await cache.get("x", "t", compute)).toBe(4);
  });

  it("serves an old answer of the same version while one reader refreshes it", async () => {
    let nowMs = 0;
    let computed = 0;
    const cache = createTickCache<number>(2000, { nowMs: () => nowMs });
    const compute = async () => ++computed;
    expect(await cache.get("h100", "t1", compute)).toBe(1);
    nowMs = 2500;
    const [a, b] = await Promise.all([
      cache.get("h100", "t1", compute),
      cache.get("h100", "t1", compute),
    ]);
    expect([a, b]).toEqual([1, 1]);
    await settle();
    expect(computed).toBe(2);
    expect(await cache.get("h100", "t1", compute)).toBe(2);
    // A new version is never served old.
    expect(await cache.get("h100", "t2", compute)).toBe(3);
  });

  it("keeps at most maxKeys keys, dropping the least recently computed", async () => {
    let computed = 0;
    const cache = createTickCache<number>(2000, { maxKeys: 2, nowMs: () => 0 });
    const compute = async () => ++computed;
    await cache.get("a", "t", compute);
    await cache.get("b", "t", compute);
    await cache.get("c", "t", compute);
    expect(await cache.get("b", "t", compute)).toBe(2);
    expect(await cache.get("a", "t", compute)).toBe(4);
  });
});

describe("createVersionMemo", () => {
  it("reads once per reuse time, and again after a tick of this server", async () => {
    let nowMs = 0;
    let reads = 0;
    const memo = createVersionMemo(500, () => nowMs);
    const read = async () => `v${++reads}`;
    expect(await Promise.all([memo.get("all", read), memo.get("all", read)])).toEqual(["v1", "v1"]);
    nowMs = 499;
    expect(await memo.get("all", read)).toBe("v1");
    noteLocalTick();
    expect(await memo.get("all", read)).toBe("v2");
    nowMs = 1000;
    expect(await memo.get("all", read)).toBe("v3");
  });
});
