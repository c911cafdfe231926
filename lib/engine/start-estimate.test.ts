import { describe, expect, it } from "vitest";
import { formatUtcClock } from "./format-time";
import type { BudgetRef, WaitReason } from "./reasons";
import { estimateStart } from "./start-estimate";

const AT = 20_000 * 86400 + 14 * 3600; // 14:00 UTC
const RILEY: BudgetRef = { id: "r", path: "language/riley", rank: 7, usageRatio: 1.2 };

function waitResources(overrides: Partial<Extract<WaitReason, { rule: "wait-resources" }>>) {
  return {
    rule: "wait-resources",
    atSec: AT,
    budget: RILEY,
    needGpus: 16,
    isWholeNodes: true,
    freeGpus: 4,
    freeWholeNodes: 0,
    protectedGpus: 16,
    readyAtSec: AT + 40 * 60,
    heldByHigherGpus: 0,
    heldWithinShareGpus: 0,
    unusableGpus: 0,
    budgetsAbove: 6,
    reservedNodes: [],
    ...overrides,
  } satisfies WaitReason;
}

describe("estimateStart", () => {
  it("the job nodes are kept for: starts by the time they are expected ready", () => {
    expect(estimateStart(waitResources({ reservedNodes: [4, 5] }), formatUtcClock)).toEqual({
      expectedStartSec: AT + 40 * 60,
      note: null,
    });
  });

  it("kept nodes already ready (a time in the past): now, never before it", () => {
    const reason = waitResources({ reservedNodes: [4], readyAtSec: AT - 60 });
    expect(estimateStart(reason).expectedStartSec).toBe(AT);
  });

  it("kept nodes held by budgets ranked higher: no time, says what must change", () => {
    expect(estimateStart(waitResources({ reservedNodes: [4, 5], readyAtSec: null }))).toEqual({
      expectedStartSec: null,
      note: "Nodes 4-5 are kept for it, but budgets ranked at or above its budget run there: it starts when their runs end or its budget's rank rises above theirs, and jobs let onto those nodes meanwhile (protected for at most 2 h) have ended their protection.",
    });
  });

  it("only its own budget's runs in the way: says so, not that budgets ranked higher must free them", () => {
    const own = waitResources({ heldByHigherGpus: 8, heldByOwnGpus: 8, budgetsAbove: 0 });
    expect(estimateStart(own).note).toBe(
      "It starts when its budget's own runs or the jobs ahead of it free 16 GPUs, and protections end.",
    );
    const kept = waitResources({
      reservedNodes: [4, 5],
      readyAtSec: null,
      heldByHigherGpus: 8,
      heldByOwnGpus: 8,
    });
    expect(estimateStart(kept).note).toBe(
      "Nodes 4-5 are kept for it, but its budget's own runs hold GPUs there: it starts when they end, and jobs let onto those nodes meanwhile (protected for at most 2 h) have ended their protection.",
    );
  });

  it("a job behind the one nodes are kept for gets no time, even when protections end", () => {
    const estimate = estimateStart(waitResources({ heldByHigherGpus: 8 }));
    expect(estimate.expectedStartSec).toBeNull();
    expect(estimate.note).toBe(
      "It starts when jobs ahead of it have started and budgets ranked higher free 16 GPUs, or sooner if its budget's rank rises (the budget uses less of its share than others over the week).",
    );
  });

  it("GPUs enough but not the shape: says so", () => {
    const estimate = estimateStart(waitResources({ readyAtSec: AT, isWholeNodes: false }));
    expect(estimate.note).toBe(
      "Enough GPUs are free or preemptable, but not on one node: it starts when runs on one node end, or when fewer jobs wait ahead of it.",
    );
    // A gang job needs several whole nodes, not one.
    const gang = estimateStart(waitResources({ readyAtSec: AT, isWholeNodes: true }));
    expect(gang.note).toBe(
      "Enough GPUs are free or preemptable, but not as whole nodes: it starts when runs end on enough nodes to free them whole, or when fewer jobs wait ahead of it.",
    );
  });

  it("behind a reservation: names the kept nodes and their holder's expected start", () => {
    const reason: WaitReason = {
      rule: "wait-reservation",
      atSec: AT,
      budget: RILEY,
      needGpus: 2,
      isWholeNodes: false,
      holder: { jobId: "j1", budget: RILEY, gpus: 64 },
      parting: null,
      reservedNodes: [3],
      readyAtSec: AT + 40 * 60,
      budgetsAbove: 6,
    };
    expect(estimateStart(reason, formatUtcClock)).toEqual({
      expectedStartSec: null,
      note: "Node 3 is kept for a job ahead of it (expected to start by 14:40); it starts once that job has started and 2 GPUs are free for it.",
    });
  });

  it("unallocated work and jobs that can never run: no time", () => {
    const unallocated: WaitReason = {
      rule: "wait-unallocated",
      atSec: AT,
      budget: RILEY,
      needGpus: 1,
      isWholeNodes: false,
      freeGpus: 0,
      freeWholeNodes: 0,
      cause: "zero-min-runtime",
    };
    expect(estimateStart(unallocated).expectedStartSec).toBeNull();
    expect(estimateStart(unallocated).note).toMatch(/^It runs as unallocated work/);
    const tooLarge: WaitReason = {
      rule: "error-larger-than-cluster",
      needGpus: 2000,
      clusterGpus: 1024,
      nodeSizeGpus: 8,
    };
    expect(estimateStart(tooLarge)).toEqual({
      expectedStartSec: null,
      note: "It can never start on this cluster as submitted.",
    });
  });
});
