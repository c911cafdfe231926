import { describe, expect, it } from "vitest";
import { formatOrdinal, summarizeReason } from "./explain-summary";
import { formatUtcClock } from "./format-time";
import type { BudgetRef, WaitReason } from "./reasons";

const AT = 20_000 * 86400 + 14 * 3600; // 14:00 UTC
const RILEY: BudgetRef = { id: "r", path: "language/riley", rank: 7, usageRatio: 1.2 };
const CLOCK = { formatTime: formatUtcClock };

const WAITING: WaitReason = {
  rule: "wait-resources",
  atSec: AT,
  budget: RILEY,
  needGpus: 16,
  isWholeNodes: true,
  freeGpus: 4,
  freeWholeNodes: 0,
  protectedGpus: 0,
  readyAtSec: null,
  heldByHigherGpus: 1020,
  heldWithinShareGpus: 0,
  unusableGpus: 0,
  budgetsAbove: 6,
  reservedNodes: [],
};

describe("formatOrdinal", () => {
  it("st, nd, rd, th, and the teens", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(formatOrdinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
    ]);
  });
});

describe("summarizeReason", () => {
  it("waiting for GPUs: free GPUs, the need, the rank of N and the jobs ahead", () => {
    expect(summarizeReason(WAITING, { ...CLOCK, rankedBudgets: 12, jobsAhead: 3 })).toBe(
      "Waiting: 4 GPUs are free but it needs 16 GPUs on whole nodes; its budget ranks 7th of 12 and 3 jobs are ahead of it.",
    );
  });

  it("waiting, first in line and N unknown: no 'of', no jobs ahead", () => {
    expect(
      summarizeReason(
        { ...WAITING, freeGpus: 1, isWholeNodes: false, needGpus: 2 },
        { jobsAhead: 0 },
      ),
    ).toBe("Waiting: 1 GPU is free but it needs 2 GPUs on one node; its budget ranks 7th.");
  });

  it("a job larger than a node: its whole nodes, and the rest on another", () => {
    const twelve = { ...WAITING, needGpus: 12, layout: { wholeNodes: 1, remainderGpus: 4 } };
    expect(summarizeReason(twelve, { rankedBudgets: 12 })).toBe(
      "Waiting: 4 GPUs are free but it needs 12 GPUs (1 whole node and 4 on another); its budget ranks 7th of 12.",
    );
    const sixteen = { ...WAITING, layout: { wholeNodes: 2, remainderGpus: 0 } };
    expect(summarizeReason(sixteen)).toBe(
      "Waiting: 4 GPUs are free but it needs 16 GPUs on 2 whole nodes; its budget ranks 7th.",
    );
  });

  it("enough GPUs free in total but not in its shape: spread over nodes, and the nodes it needs", () => {
    const twelve = {
      ...WAITING,
      needGpus: 12,
      freeGpus: 13,
      freeWholeNodes: 1,
      layout: { wholeNodes: 1, remainderGpus: 4 },
    };
    expect(summarizeReason(twelve, { rankedBudgets: 12 })).toBe(
      "Waiting: 13 GPUs are free, but spread over nodes: it needs 1 whole node and 4 GPUs on another; its budget ranks 7th of 12.",
    );
    const eight = { ...WAITING, needGpus: 8, isWholeNodes: false, freeGpus: 8 };
    expect(summarizeReason(eight, { jobsAhead: 2 })).toBe(
      "Waiting: 8 GPUs are free, but spread over nodes: it needs 8 GPUs on one node; its budget ranks 7th and 2 jobs are ahead of it.",
    );
    const sixteen = { ...WAITING, freeGpus: 20, layout: { wholeNodes: 2, remainderGpus: 0 } };
    expect(summarizeReason(sixteen)).toBe(
      "Waiting: 20 GPUs are free, but spread over nodes: it needs 2 whole nodes; its budget ranks 7th.",
    );
    // A reason recorded before layouts were.
    expect(summarizeReason({ ...WAITING, freeGpus: 16 })).toBe(
      "Waiting: 16 GPUs are free, but spread over nodes: it needs 16 GPUs on whole nodes; its budget ranks 7th.",
    );
  });

  it("unallocated work: free GPUs, and when no node has enough, the most on one", () => {
    const unallocated: WaitReason = {
      rule: "wait-unallocated",
      atSec: AT,
      budget: RILEY,
      needGpus: 8,
      isWholeNodes: false,
      freeGpus: 13,
      freeWholeNodes: 0,
      mostFreeOnOneNode: 7,
      cause: "zero-min-runtime",
    };
    expect(summarizeReason(unallocated, CLOCK)).toBe(
      "Waiting as unallocated work: it runs only on GPUs no allocated job can use, and 13 GPUs are free, no more than 7 on one healthy node.",
    );
    expect(summarizeReason({ ...unallocated, mostFreeOnOneNode: 8 }, CLOCK)).toBe(
      "Waiting as unallocated work: it runs only on GPUs no allocated job can use, and 13 GPUs are free.",
    );
  });

  it("nodes kept for the job: says when they should be free", () => {
    const kept = { ...WAITING, reservedNodes: [4, 5], readyAtSec: AT + 40 * 60 };
    expect(summarizeReason(kept, CLOCK)).toBe(
      "Waiting for whole nodes: nodes 4-5 are being kept for this job and should be free by 14:40.",
    );
    // Held by runs of budgets ranked at or above: the summary still says the nodes are kept.
    expect(summarizeReason({ ...kept, readyAtSec: null }, CLOCK)).toBe(
      "Waiting for whole nodes: nodes 4-5 are being kept for this job; when they will be free is not known yet.",
    );
    const oneNode = { ...kept, isWholeNodes: false, reservedNodes: [4], readyAtSec: null };
    expect(summarizeReason(oneNode, CLOCK)).toBe(
      "Waiting for a node: node 4 is being kept for this job; when it will be free is not known yet.",
    );
    expect(summarizeReason({ ...kept, reservedNodes: [4] }, CLOCK)).toBe(
      "Waiting for a whole node: node 4 is being kept for this job and should be free by 14:40.",
    );
  });

  it("behind nodes kept for another job", () => {
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
    expect(summarizeReason(reason, { ...CLOCK, rankedBudgets: 12 })).toBe(
      "Waiting: node 3 is kept for a job ahead of it (expected to start by 14:40); its budget ranks 7th of 12.",
    );
  });

  it("preempted for a budget that used less of its share, in plain words", () => {
    expect(
      summarizeReason(
        {
          rule: "preempt-for-rank",
          atSec: AT,
          victim: RILEY,
          victimStartSec: AT - 3600,
          protectedUntilSec: AT - 600,
          preemptor: { jobId: "j2", budget: { ...RILEY, id: "p", rank: 1 }, gpus: 8 },
          parting: null,
          outcome: "requeued",
        },
        CLOCK,
      ),
    ).toBe("Preempted at 14:00: a job of a budget that has used less of its share needed 8 GPUs.");
  });

  it("preempted where the branches part: names the branch that used less, not the leaf", () => {
    // dana's budget has used more of its share than riley's (276% against 120%); vision, where
    // the two paths part, has used less than language, and that put dana's job ahead.
    const dana: BudgetRef = { id: "d", path: "vision/dana", rank: 2, usageRatio: 2.76 };
    const preemption = {
      rule: "preempt-for-rank" as const,
      atSec: AT,
      victim: RILEY,
      victimStartSec: AT - 3600,
      protectedUntilSec: AT - 600,
      preemptor: { jobId: "j2", budget: dana, gpus: 64 },
      parting: {
        higher: { path: "vision", usageRatio: 0.92 },
        lower: { path: "language", usageRatio: 1.3 },
      },
      outcome: "requeued" as const,
    };
    expect(summarizeReason(preemption, CLOCK)).toBe(
      "Preempted at 14:00: a job of a higher-ranked budget needed 64 GPUs (vision has used less of its share than language).",
    );
    // Level where they part (both unused): the tie rules put it ahead, not less use.
    const level = {
      higher: { path: "vision", usageRatio: 0 },
      lower: { path: "language", usageRatio: 0 },
    };
    expect(summarizeReason({ ...preemption, parting: level }, CLOCK)).toBe(
      "Preempted at 14:00: a job of a higher-ranked budget needed 64 GPUs (vision ranks above language).",
    );
    // Siblings: their own figures decide, and the plain sentence holds.
    const sister: BudgetRef = { id: "s", path: "language/sam", rank: 2, usageRatio: 0.5 };
    const siblings = {
      higher: { path: "language/sam", usageRatio: 0.5 },
      lower: { path: "language/riley", usageRatio: 1.2 },
    };
    const bySister = { ...preemption.preemptor, budget: sister };
    expect(summarizeReason({ ...preemption, preemptor: bySister, parting: siblings }, CLOCK)).toBe(
      "Preempted at 14:00: a job of a budget that has used less of its share needed 64 GPUs.",
    );
  });

  it("a run adopted from the executor says it ran before Allot saw it", () => {
    const adopted = {
      rule: "start-adopted" as const,
      atSec: AT - 3600,
      adoptedAtSec: AT,
      budget: RILEY,
      gpus: 8,
      nodes: [0],
      isAllocated: true,
      protectedUntilSec: AT + 3600,
    };
    expect(summarizeReason(adopted, CLOCK)).toBe(
      "Running since 13:00, before Allot saw it; nothing can preempt it until 15:00.",
    );
  });
});
