import { describe, expect, it } from "vitest";
import { orderQueue, type QueueEntry } from "./queue-order";
import type { Priority } from "./types";

function job(id: string, budgetId: string, priority: Priority, submitSec: number): QueueEntry {
  return { id, budgetId, priority, submitSec };
}

const RANKS: Record<string, number> = { a: 1, b: 2, c: 2, d: 4 };
const rankOf = (budgetId: string) => RANKS[budgetId] ?? 99;

describe("orderQueue", () => {
  it("orders by rank, then priority, then submit time, then id", () => {
    const jobs = [
      job("j5", "d", "high", 0),
      job("j4", "a", "low", 0),
      job("j3", "a", "normal", 9),
      job("j2", "a", "normal", 5),
      job("j1", "a", "normal", 5),
      job("j0", "a", "high", 20),
    ];
    expect(orderQueue(jobs, rankOf, () => true).map((j) => j.id)).toEqual([
      "j0",
      "j1",
      "j2",
      "j3",
      "j4",
      "j5",
    ]);
  });

  it("unallocated jobs follow every allocated one", () => {
    const jobs = [job("free", "a", "high", 0), job("paid", "d", "low", 9)];
    expect(orderQueue(jobs, rankOf, (j) => j.id === "paid").map((j) => j.id)).toEqual([
      "paid",
      "free",
    ]);
  });

  it("priority orders only within a budget: tied budgets share places in submit order", () => {
    const jobs = [
      job("b-normal", "b", "normal", 1),
      job("c-normal", "c", "normal", 2),
      job("c-high", "c", "high", 3),
      job("b-low", "b", "low", 4),
    ];
    // Places in submit order: b, c, c, b. c fills its places high first.
    expect(orderQueue(jobs, rankOf, () => true).map((j) => j.id)).toEqual([
      "b-normal",
      "c-high",
      "c-normal",
      "b-low",
    ]);
  });

  it("does not depend on input order; equal submit times fall back to id", () => {
    const jobs = [
      job("x2", "a", "normal", 7),
      job("x10", "a", "normal", 7),
      job("x1", "a", "normal", 7),
    ];
    const expected = ["x1", "x10", "x2"];
    expect(orderQueue(jobs, rankOf, () => true).map((j) => j.id)).toEqual(expected);
    expect(orderQueue([...jobs].reverse(), rankOf, () => true).map((j) => j.id)).toEqual(expected);
  });

  it("handles fractional and negative submit times and long runs of equal times", () => {
    const jobs = Array.from({ length: 40 }, (_, i) =>
      job(`k${String(i).padStart(2, "0")}`, "a", "normal", 0.5),
    );
    jobs.push(job("early", "a", "normal", -3.25));
    const ordered = orderQueue([...jobs].reverse(), rankOf, () => true).map((j) => j.id);
    expect(ordered[0]).toBe("early");
    expect(ordered.slice(1)).toEqual(jobs.slice(0, 40).map((j) => j.id));
  });
});
