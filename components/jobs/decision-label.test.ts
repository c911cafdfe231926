import { describe, expect, it } from "vitest";
import { labelDecision } from "./decision-label";

describe("a decision's heading", () => {
  it("says what happened: started, waiting, preempted", () => {
    expect(labelDecision("start", "start-allocated")).toBe("Started");
    expect(labelDecision("wait", "wait-reservation")).toBe("Waiting");
    expect(labelDecision("preempt", "preempt-for-rank")).toBe("Preempted");
    expect(labelDecision("preempt", "preempt-drain")).toBe("Preempted");
  });

  it("a run whose node went down ended, as its sentence says: no job preempted it", () => {
    expect(labelDecision("preempt", "preempt-node-down")).toBe("Ended");
  });
});
