import { describe, expect, it } from "vitest";
import { explainReason } from "./explain";
import { formatUtcClock } from "./format-time";
import type { BudgetRef, WaitReason } from "./reasons";

const AT = 20_000 * 86400 + 14 * 3600 + 5 * 60; // 14:05 UTC
const LM: BudgetRef = { id: "lm", path: "llm/lm-pretrain", rank: 1, usageRatio: 0.4 };
const VISION: BudgetRef = { id: "vr", path: "vision/vision-rl", rank: 3, usageRatio: 1.8 };
const CLOCK = {
  formatTime: formatUtcClock,
  budgetLabel: (budget: BudgetRef) =>
    budget.id === "lm" ? "project lm-pretrain" : budget.path.split("/").pop()!,
};

describe("explainReason", () => {
  it("why preempted: docs/ranking.md's sentence", () => {
    expect(
      explainReason(
        {
          rule: "preempt-for-rank",
          atSec: AT,
          victim: VISION,
          victimStartSec: AT - 5 * 3600,
          protectedUntilSec: AT - 3 * 3600,
          preemptor: { jobId: "j1", budget: LM, gpus: 64 },
          parting: {
            higher: { path: LM.path, usageRatio: 0.4 },
            lower: { path: VISION.path, usageRatio: 1.8 },
          },
          outcome: "requeued",
        },
        CLOCK,
      ),
    ).toBe(
      "Preempted at 14:05, after its 2 h protected period: project lm-pretrain (at 40% of its weekly share) needed 64 GPUs and ranks above vision-rl (at 180%), its sibling, so their own figures decide. The job was requeued with its remaining work.",
    );
  });

  it("why preempted, decided above the leaves: names where the two branches part first", () => {
    const dana: BudgetRef = { id: "d", path: "vision/perception/dana", rank: 30, usageRatio: 2.76 };
    const riley: BudgetRef = {
      id: "r",
      path: "language/posttrain/riley",
      rank: 38,
      usageRatio: 1.85,
    };
    expect(
      explainReason(
        {
          rule: "preempt-for-rank",
          atSec: AT,
          victim: riley,
          victimStartSec: AT - 5 * 3600,
          protectedUntilSec: AT - 3 * 3600,
          preemptor: { jobId: "j1", budget: dana, gpus: 64 },
          parting: {
            higher: { path: "vision", usageRatio: 0.92 },
            lower: { path: "language", usageRatio: 1.3 },
          },
          outcome: "preempted",
        },
        { formatTime: formatUtcClock },
      ),
    ).toBe(
      "Preempted at 14:05, after its 2 h protected period: vision (at 92% of its weekly share) ranks above language (at 130%), where the two budgets' branches part, so vision/perception/dana (at 276% of its weekly share) needed 64 GPUs and preempted language/posttrain/riley (at 185%). The job is not resumable and ends as preempted.",
    );
  });

  it("why still waiting: GPUs free, held by protected runs, when enough are out of protection, budgets above", () => {
    expect(
      explainReason(
        {
          rule: "wait-resources",
          atSec: AT - 3600,
          budget: VISION,
          needGpus: 64,
          isWholeNodes: true,
          freeGpus: 40,
          freeWholeNodes: 3,
          protectedGpus: 24,
          readyAtSec: AT,
          heldByHigherGpus: 0,
          heldWithinShareGpus: 0,
          unusableGpus: 0,
          budgetsAbove: 2,
          reservedNodes: [],
        },
        CLOCK,
      ),
    ).toBe(
      "Waiting: needs 64 GPUs on whole nodes; 40 are free (3 whole nodes); 24 are held by protected runs of budgets ranked below its budget (enough for this job are out of protection by 14:05); 2 budgets rank above its budget.",
    );
  });

  it("why started: rank, usage, protection; default offset times", () => {
    expect(
      explainReason({
        rule: "start-allocated",
        atSec: 7500,
        budget: LM,
        gpus: 16,
        nodes: [3, 4],
        minRuntimeSec: 7200,
        protectedUntilSec: 14_700,
        preemptedRunIds: ["r1"],
        budgetsAbove: 0,
        keptFor: null,
      }),
    ).toBe(
      "Started at +2h05m on nodes 3-4 with 16 GPUs, after preempting 1 run: llm/lm-pretrain (at 40% of its weekly share) ranks 1 (no budget ranks above it); protected for 2 h, until +4h05m.",
    );
  });

  it("why started, on a SLURM cluster: the nodes by SLURM's names, as squeue writes them", () => {
    expect(
      explainReason(
        {
          rule: "start-allocated",
          atSec: 7500,
          budget: LM,
          gpus: 16,
          nodes: [0, 1],
          minRuntimeSec: 7200,
          protectedUntilSec: 14_700,
          preemptedRunIds: [],
          budgetsAbove: 0,
          keptFor: null,
        },
        { nodeName: (index) => `n${index + 1}` },
      ),
    ).toMatch(/^Started at \+2h05m on nodes n\[1-2\] with 16 GPUs:/);
    expect(
      explainReason(
        { rule: "drain-complete", atSec: 60, node: 2 },
        { nodeName: (index) => `n${index + 1}` },
      ),
    ).toBe("Node n3 finished draining at +1m: no runs left, ready for maintenance.");
  });

  it("why started: backfill on GPUs kept for a better-placed job", () => {
    expect(
      explainReason({
        rule: "start-allocated",
        atSec: 0,
        budget: VISION,
        gpus: 4,
        nodes: [1],
        minRuntimeSec: 1800,
        protectedUntilSec: 1800,
        preemptedRunIds: [],
        budgetsAbove: 2,
        keptFor: { jobId: "big", budget: LM, readyAtSec: 3600 },
      }),
    ).toBe(
      "Started at +0s on node 1 with 4 GPUs: vision/vision-rl (at 180% of its weekly share) ranks 3 (2 budgets rank above it); protected for 30 min, until +30m; it uses GPUs kept for a job of llm/lm-pretrain expected to start at +1h00m, which may preempt it from then.",
    );
  });

  it("why started: backfill on GPUs kept for a job with no expected start (ADR 097)", () => {
    expect(
      explainReason({
        rule: "start-allocated",
        atSec: 0,
        budget: VISION,
        gpus: 8,
        nodes: [3],
        minRuntimeSec: 7200,
        protectedUntilSec: 7200,
        preemptedRunIds: [],
        budgetsAbove: 2,
        keptFor: { jobId: "big", budget: LM, readyAtSec: null },
      }),
    ).toBe(
      "Started at +0s on node 3 with 8 GPUs: vision/vision-rl (at 180% of its weekly share) ranks 3 (2 budgets rank above it); protected for 2 h, until +2h00m; it uses GPUs kept for a job of llm/lm-pretrain, which has no expected start yet and may preempt it once its protection ends.",
    );
  });

  it("why started as a short job: on a node kept for another job, done before it needs it", () => {
    expect(
      explainReason({
        rule: "start-allocated",
        atSec: 0,
        budget: VISION,
        gpus: 2,
        nodes: [5],
        minRuntimeSec: 600,
        protectedUntilSec: 600,
        preemptedRunIds: [],
        budgetsAbove: 2,
        keptFor: { jobId: "big", budget: LM, readyAtSec: 5400 },
        short: { isShareGuardWaived: false },
      }),
    ).toBe(
      "Started at +0s on node 5 with 2 GPUs: vision/vision-rl (at 180% of its weekly share) ranks 3 (2 budgets rank above it); protected for 10 min, until +10m; as a short job it uses a node kept for a job of llm/lm-pretrain expected to start at +1h30m, and its protection ends before then.",
    );
  });

  it("why started as a short job: says when the share guard was waived for it", () => {
    expect(
      explainReason({
        rule: "start-allocated",
        atSec: 0,
        budget: LM,
        gpus: 8,
        nodes: [2],
        minRuntimeSec: 900,
        protectedUntilSec: 900,
        preemptedRunIds: ["r7"],
        budgetsAbove: 0,
        keptFor: { jobId: "big", budget: VISION, readyAtSec: null },
        outranked: { budget: VISION, parting: null },
        short: { isShareGuardWaived: true },
      }),
    ).toBe(
      "Started at +0s on node 2 with 8 GPUs, after preempting 1 run: llm/lm-pretrain (at 40% of its weekly share) ranks above vision/vision-rl (at 180%); it ranks 1 (no budget ranks above it); protected for 15 min, until +15m; as a short job it uses a node kept for a job of vision/vision-rl, which has no expected start yet. The share guard was waived for this short job: it preempted a budget ranked below its own that holds no more GPUs per unit of share than its budget does with this job running, which only jobs protected for at most 15 minutes may do.",
    );
  });

  it("why started after preempting: names where the two branches part, then the leaves", () => {
    const dana: BudgetRef = { id: "d", path: "vision/perception/dana", rank: 30, usageRatio: 2.76 };
    const riley: BudgetRef = {
      id: "r",
      path: "language/posttrain/riley",
      rank: 38,
      usageRatio: 1.85,
    };
    expect(
      explainReason(
        {
          rule: "start-allocated",
          atSec: AT,
          budget: dana,
          gpus: 64,
          nodes: [0, 1, 2, 3, 4, 5, 6, 7],
          minRuntimeSec: 7200,
          protectedUntilSec: AT + 7200,
          preemptedRunIds: ["r1", "r2"],
          budgetsAbove: 29,
          keptFor: null,
          outranked: {
            budget: riley,
            parting: {
              higher: { path: "vision", usageRatio: 0.92 },
              lower: { path: "language", usageRatio: 1.3 },
            },
          },
        },
        { formatTime: formatUtcClock },
      ),
    ).toBe(
      "Started at 14:05 on nodes 0-7 with 64 GPUs, after preempting 2 runs: vision (at 92% of its weekly share) ranks above language (at 130%), where the two budgets' branches part, so vision/perception/dana (at 276% of its weekly share) ranks above language/posttrain/riley (at 185%); it ranks 30 (29 budgets rank above it); protected for 2 h, until 16:05.",
    );
  });

  it("why still waiting for GPUs: names the biggest holder ranked above and where they part", () => {
    expect(
      explainReason(
        {
          rule: "wait-resources",
          atSec: AT,
          budget: VISION,
          needGpus: 64,
          isWholeNodes: true,
          freeGpus: 0,
          freeWholeNodes: 0,
          protectedGpus: 0,
          readyAtSec: null,
          heldByHigherGpus: 96,
          heldWithinShareGpus: 0,
          unusableGpus: 0,
          budgetsAbove: 2,
          reservedNodes: [],
          heldMostBy: {
            budget: LM,
            gpus: 64,
            parting: {
              higher: { path: "llm", usageRatio: 0.5 },
              lower: { path: "vision", usageRatio: 1.2 },
            },
          },
        },
        { formatTime: formatUtcClock },
      ),
    ).toBe(
      "Waiting: needs 64 GPUs on whole nodes; 0 are free (0 whole nodes); 96 are used by budgets ranked at or above its budget, 64 of them by llm/lm-pretrain: llm (at 50% of its weekly share) ranks above vision (at 120%), where the two budgets' branches part, so llm/lm-pretrain (at 40% of its weekly share) ranks above vision/vision-rl (at 180%); 2 budgets rank above its budget.",
    );
  });

  it("why still waiting for GPUs: runs the share guard keeps, in plain words (ADR 011)", () => {
    const waiting: WaitReason = {
      rule: "wait-resources",
      atSec: AT,
      budget: LM,
      needGpus: 8,
      isWholeNodes: false,
      freeGpus: 0,
      freeWholeNodes: 0,
      protectedGpus: 0,
      readyAtSec: null,
      heldByHigherGpus: 0,
      heldWithinShareGpus: 16,
      unusableGpus: 0,
      budgetsAbove: 0,
      reservedNodes: [],
    };
    expect(explainReason(waiting)).toBe(
      "Waiting: needs 8 GPUs on one node; 0 are free; 16 are used by budgets ranked below its budget that it may not preempt: they hold no more GPUs per unit of share than its budget would with this job running (the share guard, compared where their branches part); no budget ranks above its budget.",
    );
    expect(explainReason({ ...waiting, heldWithinShareGpus: 1 })).toContain(
      "; 1 is used by budgets ranked below its budget that it may not preempt: they hold",
    );
  });

  it("why still waiting for GPUs: the job's own budget's runs are counted apart", () => {
    expect(
      explainReason(
        {
          rule: "wait-resources",
          atSec: AT,
          budget: VISION,
          needGpus: 8,
          isWholeNodes: false,
          freeGpus: 0,
          freeWholeNodes: 0,
          protectedGpus: 0,
          readyAtSec: null,
          heldByHigherGpus: 850,
          heldByOwnGpus: 738,
          heldWithinShareGpus: 0,
          unusableGpus: 0,
          budgetsAbove: 2,
          reservedNodes: [],
          heldMostBy: { budget: LM, gpus: 112, parting: null },
        },
        { formatTime: formatUtcClock },
      ),
    ).toBe(
      "Waiting: needs 8 GPUs on one node; 0 are free; 738 are used by its own budget's runs; 112 are used by budgets ranked at or above its budget, 112 of them by llm/lm-pretrain: llm/lm-pretrain (at 40% of its weekly share) ranks above vision/vision-rl (at 180%); 2 budgets rank above its budget.",
    );
  });

  it("unallocated waits and starts, drains, node down and errors each get one sentence", () => {
    expect(
      explainReason({
        rule: "wait-unallocated",
        atSec: 0,
        budget: LM,
        needGpus: 16,
        isWholeNodes: true,
        freeGpus: 4,
        freeWholeNodes: 0,
        cause: "zero-min-runtime",
      }),
    ).toBe(
      "Waiting as unallocated work (minimum runtime 0): it may only use GPUs no allocated job can use; needs 16 GPUs on whole nodes; 4 are free (0 whole nodes).",
    );
    // 13 GPUs free, but 6 and 7 on two nodes: an 8-GPU job is told why it does not fit.
    expect(
      explainReason({
        rule: "wait-unallocated",
        atSec: 0,
        budget: LM,
        needGpus: 8,
        isWholeNodes: false,
        freeGpus: 13,
        freeWholeNodes: 0,
        mostFreeOnOneNode: 7,
        cause: "zero-min-runtime",
      }),
    ).toBe(
      "Waiting as unallocated work (minimum runtime 0): it may only use GPUs no allocated job can use; needs 8 GPUs on one node; 13 are free, but no healthy node has 8 free (at most 7 on one).",
    );
    expect(
      explainReason({
        rule: "preempt-drain",
        atSec: 3600,
        victim: VISION,
        victimStartSec: 0,
        protectedUntilSec: 1800,
        node: 7,
        outcome: "preempted",
      }),
    ).toBe(
      "Preempted at +1h00m: node 7 is draining for maintenance and the run's protected period ended at +30m. The job is not resumable and ends as preempted.",
    );
    expect(explainReason({ rule: "drain-complete", atSec: 60, node: 7 })).toBe(
      "Node 7 finished draining at +1m00m: no runs left, ready for maintenance.".replace(
        "+1m00m",
        "+1m",
      ),
    );
    expect(
      explainReason({
        rule: "preempt-unallocated",
        atSec: 0,
        victim: VISION,
        victimStartSec: 0,
        preemptor: { jobId: "j", budget: LM, gpus: 8 },
        outcome: "requeued",
      }),
    ).toBe(
      "Preempted at +0s: it ran as unallocated work and llm/lm-pretrain (at 40% of its weekly share) needed 8 GPUs. The job was requeued with its remaining work.",
    );
    expect(
      explainReason({
        rule: "wait-reservation",
        atSec: 0,
        budget: VISION,
        needGpus: 8,
        isWholeNodes: false,
        holder: { jobId: "big", budget: LM, gpus: 64 },
        parting: {
          higher: { path: "llm", usageRatio: 0.5 },
          lower: { path: "vision", usageRatio: 1.2 },
        },
        reservedNodes: [0, 1, 2, 5],
        readyAtSec: null,
        budgetsAbove: 1,
      }),
    ).toBe(
      "Waiting: needs 8 GPUs on one node; it would fit, but nodes 0-2, 5 are kept for a job of llm/lm-pretrain that needs 64 GPUs (no expected start yet; a job protected for at most 2 h may use them); llm (at 50% of its weekly share) ranks above vision (at 120%), where the two budgets' branches part, so llm/lm-pretrain (at 40% of its weekly share) ranks above vision/vision-rl (at 180%); 1 budget ranks above its budget.",
    );
  });

  it("why preempted, branches level to the whole percent: decimals tell them apart", () => {
    // The audit's figures: 102% and 102% before.
    const dana: BudgetRef = { id: "d", path: "vision/perception/dana", rank: 30, usageRatio: 1.1 };
    const riley: BudgetRef = {
      id: "r",
      path: "language/posttrain/riley",
      rank: 38,
      usageRatio: 1.3,
    };
    expect(
      explainReason(
        {
          rule: "preempt-for-rank",
          atSec: AT,
          victim: riley,
          victimStartSec: AT - 5 * 3600,
          protectedUntilSec: AT - 3 * 3600,
          preemptor: { jobId: "j1", budget: dana, gpus: 8 },
          parting: {
            higher: { path: "vision", usageRatio: 1.02396 },
            lower: { path: "language", usageRatio: 1.02403 },
          },
          outcome: "requeued",
        },
        { formatTime: formatUtcClock },
      ),
    ).toBe(
      "Preempted at 14:05, after its 2 h protected period: vision (at 102.396% of its weekly share) ranks above language (at 102.403%), where the two budgets' branches part, so vision/perception/dana (at 110% of its weekly share) needed 8 GPUs and preempted language/posttrain/riley (at 130%). The job was requeued with its remaining work.",
    );
  });

  it("a leaf that is itself where the branches part reads the same figure both times", () => {
    // The audit's b300 sentence: lm-pretrain "at 4.1%" where the branches part, then "at 4%".
    const ines: BudgetRef = {
      id: "i",
      path: "language/multilingual/ines",
      rank: 20,
      usageRatio: 0.32,
    };
    const pretrain: BudgetRef = {
      id: "p",
      path: "language/lm-pretrain",
      rank: 22,
      usageRatio: 0.0408,
    };
    const reason: WaitReason = {
      rule: "wait-resources",
      atSec: AT,
      budget: pretrain,
      needGpus: 8,
      isWholeNodes: false,
      freeGpus: 4,
      freeWholeNodes: 0,
      protectedGpus: 0,
      readyAtSec: null,
      heldByHigherGpus: 24,
      heldWithinShareGpus: 0,
      unusableGpus: 0,
      budgetsAbove: 21,
      reservedNodes: [],
      heldMostBy: {
        budget: ines,
        gpus: 24,
        parting: {
          higher: { path: "language/multilingual", usageRatio: 0.0402 },
          lower: { path: "language/lm-pretrain", usageRatio: 0.0408 },
        },
      },
    };
    expect(explainReason(reason, { formatTime: formatUtcClock })).toBe(
      "Waiting: needs 8 GPUs on one node; 4 are free; 24 are used by budgets ranked at or above its budget, 24 of them by language/multilingual/ines: language/multilingual (at 4.0% of its weekly share) ranks above language/lm-pretrain (at 4.1%), where the two budgets' branches part, so language/multilingual/ines (at 32% of its weekly share) ranks above language/lm-pretrain (at 4.1%); 21 budgets rank above its budget.",
    );
  });

  it("why preempted, siblings level beyond three decimals: says so, and what decides", () => {
    expect(
      explainReason(
        {
          rule: "preempt-for-rank",
          atSec: AT,
          victim: { ...VISION, usageRatio: 1.0000004 },
          victimStartSec: AT - 5 * 3600,
          protectedUntilSec: AT - 3 * 3600,
          preemptor: { jobId: "j1", budget: { ...LM, usageRatio: 1.0000001 }, gpus: 8 },
          parting: null,
          outcome: "requeued",
        },
        CLOCK,
      ),
    ).toBe(
      "Preempted at 14:05, after its 2 h protected period: project lm-pretrain (at 100% of its weekly share) needed 8 GPUs and ranks above vision-rl (at 100%, level to within 0.001%: the unrounded figures decide). The job was requeued with its remaining work.",
    );
  });

  it("why started after preempting a sibling: one decimal when whole percents read alike", () => {
    expect(
      explainReason({
        rule: "start-allocated",
        atSec: 0,
        budget: { ...LM, usageRatio: 1.004 },
        gpus: 8,
        nodes: [2],
        minRuntimeSec: 3600,
        protectedUntilSec: 3600,
        preemptedRunIds: ["r7"],
        budgetsAbove: 0,
        keptFor: null,
        outranked: {
          budget: { ...VISION, usageRatio: 1.005 },
          parting: {
            higher: { path: LM.path, usageRatio: 1.004 },
            lower: { path: VISION.path, usageRatio: 1.005 },
          },
        },
      }),
    ).toBe(
      "Started at +0s on node 2 with 8 GPUs, after preempting 1 run: llm/lm-pretrain (at 100.4% of its weekly share) ranks above vision/vision-rl (at 100.5%), its sibling, so their own figures decide; it ranks 1 (no budget ranks above it); protected for 1 h, until +1h00m.",
    );
  });

  it("why waiting behind a reservation, branches exactly level: the tie rules decide", () => {
    expect(
      explainReason({
        rule: "wait-reservation",
        atSec: 0,
        budget: { ...VISION, usageRatio: 0 },
        needGpus: 8,
        isWholeNodes: false,
        holder: { jobId: "big", budget: { ...LM, usageRatio: 0 }, gpus: 64 },
        parting: {
          higher: { path: "llm", usageRatio: 0 },
          lower: { path: "vision", usageRatio: 0 },
        },
        reservedNodes: [0, 1],
        readyAtSec: null,
        budgetsAbove: 1,
      }),
    ).toBe(
      "Waiting: needs 8 GPUs on one node; it would fit, but nodes 0-1 are kept for a job of llm/lm-pretrain that needs 64 GPUs (no expected start yet; a job protected for at most 2 h may use them); llm (at 0% of its weekly share) ranks above vision (at 0%, level: the ranking's tie rules decide), where the two budgets' branches part, so llm/lm-pretrain (at 0% of its weekly share) ranks above vision/vision-rl (at 0%); 1 budget ranks above its budget.",
    );
  });

  it("usage ratio null reads as no share", () => {
    expect(
      explainReason({
        rule: "start-unallocated",
        atSec: 0,
        budget: { ...LM, usageRatio: null },
        gpus: 1,
        nodes: [0],
        cause: "zero-share",
      }),
    ).toBe(
      "Started at +0s on node 0 with 1 GPU as unallocated work (llm/lm-pretrain has no share): charged to nobody, never protected, and preempted whenever an allocated job needs its GPUs.",
    );
  });

  it("a run adopted from the executor: when it started, when Allot saw it, its protection", () => {
    const adopted = {
      rule: "start-adopted" as const,
      atSec: AT - 2 * 3600,
      adoptedAtSec: AT,
      budget: { ...LM, rank: null, usageRatio: null },
      gpus: 8,
      nodes: [2],
      isAllocated: true,
      protectedUntilSec: AT + 3600,
    };
    const options = { ...CLOCK, nodeName: (index: number) => `n${index + 1}` };
    expect(explainReason(adopted, options)).toBe(
      "Already running on node n3 with 8 GPUs since 12:05 when Allot first saw it at 14:05: it started before Allot drove the cluster, and Allot took it on as if it had started it, charged to project lm-pretrain from its start and protected until 15:05.",
    );
    expect(explainReason({ ...adopted, isAllocated: false }, options)).toMatch(
      /took it on as if it had started it, as unallocated work: charged to nobody and never protected\.$/,
    );
  });
});
