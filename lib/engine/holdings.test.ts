import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createHoldings } from "./holdings";
import { buildTree } from "./test-helpers";

// Two programs 3:1; lang splits 1:1 into pre and post.
const TREE = buildTree({
  name: "lab",
  children: [
    {
      name: "lang",
      weight: 3,
      children: [{ name: "pre" }, { name: "post" }],
    },
    { name: "vision", weight: 1 },
  ],
});

describe("createHoldings", () => {
  it("counts a run for its leaf and every ancestor, and follows starts and ends", () => {
    const holdings = createHoldings(TREE, [
      { budgetId: "lang/pre", gpus: 8 },
      { budgetId: "vision", gpus: 4 },
    ]);
    expect(holdings.heldGpus("lang/pre")).toBe(8);
    expect(holdings.heldGpus("lang")).toBe(8);
    expect(holdings.heldGpus("root")).toBe(12);
    holdings.add("lang/post", 2);
    holdings.add("lang/pre", -8);
    expect(holdings.heldGpus("lang")).toBe(2);
    expect(holdings.heldGpus("unknown")).toBe(0);
  });

  it("takes a snapshot that later adds to either side do not reach", () => {
    const holdings = createHoldings(TREE, [{ budgetId: "lang/pre", gpus: 8 }]);
    const snapshot = holdings.snapshot();
    holdings.add("vision", 4);
    snapshot.add("lang/post", 2);
    expect([holdings.heldGpus("root"), holdings.heldGpus("lang")]).toEqual([12, 8]);
    expect([snapshot.heldGpus("root"), snapshot.heldGpus("lang")]).toEqual([10, 10]);
    expect(snapshot.mayPreempt("vision", "lang/pre", 1, 1)).toBe(true);
    expect(holdings.mayPreempt("vision", "lang/pre", 1, 1)).toBe(
      createHoldings(TREE, [
        { budgetId: "lang/pre", gpus: 8 },
        { budgetId: "vision", gpus: 4 },
      ]).mayPreempt("vision", "lang/pre", 1, 1),
    );
  });

  it("compares the two siblings where the budgets' paths part, per unit of share", () => {
    // lang holds 24 (share 0.75), vision 8 (share 0.25): 32 and 32 GPUs per unit of share.
    const holdings = createHoldings(TREE, [
      { budgetId: "lang/pre", gpus: 24 },
      { budgetId: "vision", gpus: 8 },
    ]);
    // Either way the preemptor would end above the victim.
    expect(holdings.mayPreempt("vision", "lang/pre", 8, 8)).toBe(false);
    expect(holdings.mayPreempt("lang/post", "vision", 8, 8)).toBe(false);
    // Inside lang, post holds nothing and pre 24: post may take part, never all of it.
    expect(holdings.mayPreempt("lang/post", "lang/pre", 8, 8)).toBe(true);
    expect(holdings.mayPreempt("lang/post", "lang/pre", 16, 16)).toBe(true);
    expect(holdings.mayPreempt("lang/post", "lang/pre", 24, 24)).toBe(false);
  });

  it("allows what keeps the preemptor below the victim's holding before the preemption", () => {
    const holdings = createHoldings(TREE, [{ budgetId: "lang/pre", gpus: 8 }]);
    // post would hold 1 (per share 1/0.375), pre holds 8 now: allowed though pre drops to 0.
    expect(holdings.mayPreempt("lang/post", "lang/pre", 1, 8)).toBe(true);
    // Taking all 8 would leave post exactly where pre was: not below, refused.
    expect(holdings.mayPreempt("lang/post", "lang/pre", 8, 8)).toBe(false);
  });

  it("is monotone in the victim's GPUs: a larger victim never turns a refusal into a yes", () => {
    const budgets = ["lang/pre", "lang/post", "vision"];
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 40 }), { minLength: 3, maxLength: 3 }),
        fc.constantFrom(...budgets),
        fc.constantFrom(...budgets),
        fc.integer({ min: 1, max: 16 }),
        fc.integer({ min: 1, max: 40 }),
        (held, preemptor, victim, jobGpus, victimGpus) => {
          const holdings = createHoldings(
            TREE,
            budgets.map((budgetId, i) => ({ budgetId, gpus: held[i]! })),
          );
          if (holdings.mayPreempt(preemptor, victim, jobGpus, victimGpus)) return;
          for (let larger = victimGpus + 1; larger <= 48; larger += 1) {
            expect(holdings.mayPreempt(preemptor, victim, jobGpus, larger)).toBe(false);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never lets a budget preempt itself or an unknown budget", () => {
    const holdings = createHoldings(TREE, [{ budgetId: "lang/pre", gpus: 8 }]);
    expect(holdings.mayPreempt("lang/pre", "lang/pre", 1, 1)).toBe(false);
    expect(holdings.mayPreempt("nope", "lang/pre", 1, 1)).toBe(false);
  });
});
