import { describe, expect, it } from "vitest";
import { createPassScratch } from "./pass-scratch";
import { explainReason } from "./explain";
import { estimateStart } from "./start-estimate";
import { queueFromPending } from "./pending-queue";
import { runReferencePass } from "./reference-pass";
import {
  rankLookup,
  runFastPass,
  runSchedulePass,
  type SchedulePassInput,
  type SchedulePassResult,
} from "./schedule-pass";
import { buildTree, makeCluster, makeJob, makeRun } from "./test-helpers";

// hi ranks 1 (no usage), lo ranks 2 (all the usage), zero has no share (rank 3).
const TREE = buildTree({
  name: "lab",
  children: [{ name: "hi" }, { name: "lo" }, { name: "zero", weight: 0 }],
});
const USAGE = { lo: 1_000_000 };
const NOW = 7200;

function inputOf(extra: Partial<SchedulePassInput>): SchedulePassInput {
  return {
    cluster: makeCluster(4),
    nowSec: NOW,
    tree: TREE,
    leafUsage: USAGE,
    runs: [],
    pending: [],
    ...extra,
  };
}

function pass(extra: Partial<SchedulePassInput>): SchedulePassResult {
  return runSchedulePass(inputOf(extra));
}

/** The rank of the last sweep's reservation holder, as the fast pass gives its quiet check. */
function holderRankOf(extra: Partial<SchedulePassInput>): number | null {
  const input = inputOf(extra);
  const { ranking } = runSchedulePass(input);
  const queue = queueFromPending(input.pending, input.tree, input.cluster);
  const scratch = createPassScratch();
  return runFastPass({ ...input, ranking, rankOf: rankLookup(ranking), queue, scratch })
    .reservationHolderRank;
}

function startsOf(result: SchedulePassResult): [string, string][] {
  return result.starts.map((start) => [
    start.jobId,
    start.placement.map((slice) => `${slice.node}:${slice.gpus}`).join(","),
  ]);
}

function preemptedOf(result: SchedulePassResult): [string, string, string][] {
  return result.preemptions.map((p) => [p.runId, p.reason.rule, p.outcome]);
}

function waitingOf(result: SchedulePassResult): [string, string][] {
  return result.waiting.map((wait) => [wait.jobId, wait.reason.rule]);
}

describe("runSchedulePass placement", () => {
  it("puts a job that fits in one node on the node with the fewest free GPUs that hold it", () => {
    const extra = {
      runs: [
        makeRun("r0", "lo", [{ node: 0, gpus: 6 }]),
        makeRun("r2", "lo", [{ node: 2, gpus: 4 }]),
      ],
      pending: [makeJob("j1", "hi", 2), makeJob("j2", "hi", 3)],
    };
    const result = pass(extra);
    expect(startsOf(result)).toEqual([
      ["j1", "0:2"],
      ["j2", "2:3"],
    ]);
    expect(result.waiting).toEqual([]);
    expect(holderRankOf(extra)).toBeNull();
  });

  it("a job larger than any node takes whole nodes, all at once", () => {
    const result = pass({
      runs: [makeRun("r0", "lo", [{ node: 0, gpus: 1 }])],
      pending: [makeJob("j1", "hi", 16)],
    });
    expect(startsOf(result)).toEqual([["j1", "1:8,2:8"]]);
  });

  it("GPUs not a multiple of the node size: whole nodes plus the rest on the best-fitting node", () => {
    const result = pass({
      runs: [makeRun("r0", "lo", [{ node: 0, gpus: 3 }])],
      pending: [makeJob("j1", "hi", 20)],
    });
    // Nodes 1 and 2 whole; the remaining 4 GPUs on node 0 (5 free) rather than empty node 3.
    expect(startsOf(result)).toEqual([["j1", "0:4,1:8,2:8"]]);
  });

  it("a job larger than the cluster is a clear error and never starts", () => {
    const result = pass({ pending: [makeJob("big", "hi", 40)] });
    expect(result.waiting).toEqual([
      {
        jobId: "big",
        budgetId: "hi",
        isError: true,
        reason: {
          rule: "error-larger-than-cluster",
          needGpus: 40,
          clusterGpus: 32,
          nodeSizeGpus: 8,
        },
      },
    ]);
    expect(explainReason(result.waiting[0]!.reason)).toBe(
      "Cannot start: needs 40 GPUs but the cluster has 32 in nodes of 8; it can never run here.",
    );
  });

  it("a job larger than any node but within the cluster waits for whole nodes", () => {
    const result = pass({
      runs: [0, 1, 2].map((node) => makeRun(`r${node}`, "hi", [{ node, gpus: 1 }])),
      pending: [makeJob("j1", "hi", 16)],
    });
    expect(waitingOf(result)).toEqual([["j1", "wait-resources"]]);
  });

  it("refuses a minimum runtime above the cluster maximum and charging an inner budget", () => {
    const tree = buildTree({ name: "lab", children: [{ name: "p", children: [{ name: "q" }] }] });
    const result = runSchedulePass({
      cluster: makeCluster(1),
      nowSec: 0,
      tree,
      leafUsage: {},
      runs: [],
      pending: [makeJob("long", "p/q", 1, { minRuntimeSec: 9 * 3600 }), makeJob("inner", "p", 1)],
    });
    expect(
      result.waiting.map((wait) => [wait.jobId, wait.isError, explainReason(wait.reason)]),
    ).toEqual([
      [
        "long",
        true,
        "Cannot start: Minimum runtime 32400 s is above this cluster's maximum of 28800 s.",
      ],
      ["inner", true, 'Cannot start: "p" has sub-budgets; only leaves can be charged.'],
    ]);
  });
});

describe("runSchedulePass contract", () => {
  it("min runtime 0 runs unallocated and unprotected, after every allocated job", () => {
    const result = pass({
      runs: [0, 1, 2].map((node) => makeRun(`r${node}`, "hi", [{ node, gpus: 8 }])),
      pending: [
        makeJob("free", "hi", 4, { minRuntimeSec: 0, submitSec: 0 }),
        makeJob("paid", "lo", 6, { submitSec: 100 }),
      ],
    });
    expect(startsOf(result)).toEqual([["paid", "3:6"]]);
    expect(result.starts[0]!.isAllocated).toBe(true);
    expect(result.starts[0]!.protectedUntilSec).toBe(NOW + 3600);
    expect(waitingOf(result)).toEqual([["free", "wait-unallocated"]]);
  });

  it("a budget with zero share only runs unallocated, never protected", () => {
    const result = pass({ pending: [makeJob("z", "zero", 2)] });
    expect(
      result.starts.map((start) => [start.jobId, start.isAllocated, start.protectedUntilSec]),
    ).toEqual([["z", false, NOW]]);
    expect(explainReason(result.starts[0]!.reason)).toBe(
      "Started at +2h00m on node 0 with 2 GPUs as unallocated work (zero has no share): charged to nobody, never protected, and preempted whenever an allocated job needs its GPUs.",
    );
  });
});

describe("runSchedulePass preemption", () => {
  const full = (budget: string, extra = {}) =>
    [1, 2, 3].map((node) => makeRun(`${budget}${node}`, budget, [{ node, gpus: 8 }], extra));

  it("takes GPUs from an unallocated run for an allocated job", () => {
    const result = pass({
      runs: [
        makeRun("u0", "lo", [{ node: 0, gpus: 8 }], { isAllocated: false, protectedUntilSec: 0 }),
        ...full("hi"),
      ],
      pending: [makeJob("j1", "hi", 8)],
    });
    expect(preemptedOf(result)).toEqual([["u0", "preempt-unallocated", "requeued"]]);
    expect(startsOf(result)).toEqual([["j1", "0:8"]]);
    expect(result.starts[0]!.reason).toMatchObject({
      rule: "start-allocated",
      preemptedRunIds: ["u0"],
    });
  });

  it("takes GPUs from an unprotected run of a lower-ranked budget, never from a protected one", () => {
    const result = pass({
      runs: [
        makeRun("protected", "lo", [{ node: 0, gpus: 8 }], {
          startSec: 5000,
          protectedUntilSec: 8600,
        }),
        makeRun("old", "lo", [{ node: 1, gpus: 8 }], { startSec: 0, protectedUntilSec: 3600 }),
        makeRun("lo2", "lo", [{ node: 2, gpus: 8 }], { startSec: 5000, protectedUntilSec: 8600 }),
        makeRun("hi3", "hi", [{ node: 3, gpus: 8 }], { startSec: 0, protectedUntilSec: 0 }),
      ],
      pending: [makeJob("j1", "hi", 8), makeJob("j2", "hi", 8)],
    });
    expect(preemptedOf(result)).toEqual([["old", "preempt-for-rank", "requeued"]]);
    expect(startsOf(result)).toEqual([["j1", "1:8"]]);
    expect(waitingOf(result)).toEqual([["j2", "wait-resources"]]);
  });

  it("never preempts for a job that still could not start afterwards", () => {
    const result = pass({
      runs: [
        makeRun("old", "lo", [{ node: 0, gpus: 8 }], { protectedUntilSec: 3600 }),
        ...full("hi", { protectedUntilSec: 0 }),
      ],
      pending: [makeJob("j16", "hi", 16)],
    });
    expect(result.preemptions).toEqual([]);
    expect(waitingOf(result)).toEqual([["j16", "wait-resources"]]);
  });

  it("never preempts runs of a budget ranked equal or above", () => {
    const result = pass({
      runs: full("hi", { protectedUntilSec: 0 }).concat(
        makeRun("hi0", "hi", [{ node: 0, gpus: 8 }], { protectedUntilSec: 0 }),
      ),
      pending: [makeJob("j1", "hi", 8), makeJob("j2", "lo", 8)],
    });
    expect(result.preemptions).toEqual([]);
    expect(result.starts).toEqual([]);
  });

  it("chooses victims: unallocated first, then the lowest rank, then the latest start", () => {
    // a's large share keeps the share guard out of the way: only the preference order matters.
    const tree = buildTree({
      name: "lab",
      children: [{ name: "a", weight: 10 }, { name: "b" }, { name: "c" }],
    });
    const result = runSchedulePass({
      cluster: makeCluster(4),
      nowSec: NOW,
      tree,
      leafUsage: { b: 100, c: 1000 },
      runs: [
        makeRun("b0", "b", [{ node: 0, gpus: 8 }], { protectedUntilSec: 3600 }),
        makeRun("c1-early", "c", [{ node: 1, gpus: 8 }], {
          startSec: 100,
          protectedUntilSec: 3700,
        }),
        makeRun("c2-late", "c", [{ node: 2, gpus: 8 }], { startSec: 200, protectedUntilSec: 3800 }),
        makeRun("u3", "b", [{ node: 3, gpus: 8 }], { isAllocated: false, protectedUntilSec: 0 }),
      ],
      pending: ["a1", "a2", "a3", "a4"].map((id, i) => makeJob(id, "a", 8, { submitSec: i })),
    });
    expect(result.preemptions.map((p) => p.runId)).toEqual(["u3", "c2-late", "c1-early", "b0"]);
    expect(startsOf(result)).toEqual([
      ["a1", "3:8"],
      ["a2", "2:8"],
      ["a3", "1:8"],
      ["a4", "0:8"],
    ]);
  });

  it("non-resumable preemption: the job ends in state preempted", () => {
    const result = pass({
      runs: [
        makeRun("nr", "lo", [{ node: 0, gpus: 8 }], {
          protectedUntilSec: 3600,
          isResumable: false,
        }),
        ...full("lo", { startSec: 7000, protectedUntilSec: 10600 }),
      ],
      pending: [makeJob("j1", "hi", 8)],
    });
    expect(preemptedOf(result)).toEqual([["nr", "preempt-for-rank", "preempted"]]);
    expect(explainReason(result.preemptions[0]!.reason)).toBe(
      "Preempted at +2h00m, after its 1 h protected period: hi (at 0% of its weekly share) needed 8 GPUs and ranks above lo (at 10%), its sibling, so their own figures decide. The job is not resumable and ends as preempted.",
    );
  });
});

describe("runSchedulePass share guard (ADR 011)", () => {
  const unprotected = { startSec: 0, protectedUntilSec: 3600 };

  it("preempts down to an even split of equal shares and no further", () => {
    const result = pass({
      runs: [0, 1, 2, 3].map((node) =>
        makeRun(`lo${node}`, "lo", [{ node, gpus: 8 }], unprotected),
      ),
      pending: ["j1", "j2", "j3"].map((id, i) => makeJob(id, "hi", 8, { submitSec: i })),
    });
    expect(result.preemptions.map((p) => p.runId)).toHaveLength(2);
    expect(startsOf(result).map(([id]) => id)).toEqual(["j1", "j2"]);
    expect(waitingOf(result)).toEqual([["j3", "wait-resources"]]);
    expect(result.waiting[0]!.reason).toMatchObject({ heldWithinShareGpus: 16, protectedGpus: 0 });
    expect(explainReason(result.waiting[0]!.reason)).toContain(
      "16 are used by budgets ranked below its budget that it may not preempt: they hold no more GPUs per unit of share than its budget would with this job running (the share guard, compared where their branches part)",
    );
  });

  it("never swaps a whole allocation between equal budgets", () => {
    const result = pass({
      cluster: makeCluster(1),
      runs: [makeRun("lo0", "lo", [{ node: 0, gpus: 8 }], unprotected)],
      pending: [makeJob("j1", "hi", 8)],
    });
    expect(result.preemptions).toEqual([]);
    expect(result.waiting[0]!.reason).toMatchObject({ rule: "wait-resources", readyAtSec: null });
  });

  it("lets a small job in beside a budget that holds everything", () => {
    const result = pass({
      cluster: makeCluster(1),
      runs: [makeRun("lo0", "lo", [{ node: 0, gpus: 8 }], unprotected)],
      pending: [makeJob("debug", "hi", 1, { minRuntimeSec: 600 })],
    });
    expect(preemptedOf(result)).toEqual([["lo0", "preempt-for-rank", "requeued"]]);
    expect(startsOf(result)).toEqual([["debug", "0:1"]]);
  });
});

describe("runSchedulePass draining and down nodes", () => {
  it("draining node: unprotected runs are preempted, protected ones stay, nothing new starts there", () => {
    const result = pass({
      cluster: makeCluster(2, 8, { 0: "draining", 1: "draining" }),
      runs: [
        makeRun("old", "lo", [{ node: 0, gpus: 4 }], { protectedUntilSec: 3600 }),
        makeRun("young", "lo", [{ node: 1, gpus: 4 }], {
          startSec: 7000,
          protectedUntilSec: 10600,
        }),
      ],
      pending: [makeJob("j1", "hi", 1)],
    });
    expect(preemptedOf(result)).toEqual([["old", "preempt-drain", "requeued"]]);
    expect(result.drainsCompleted).toEqual([
      { node: 0, reason: { rule: "drain-complete", atSec: NOW, node: 0 } },
    ]);
    expect(result.starts).toEqual([]);
    expect(explainReason(result.waiting[0]!.reason)).toBe(
      "Waiting: needs 1 GPU on one node; 0 are free; 16 are on draining or down nodes; no budget ranks above its budget.",
    );
  });

  it("a node going down ends every run on it, protected or not, including its other nodes' GPUs", () => {
    const result = pass({
      cluster: makeCluster(2, 8, { 1: "down" }),
      runs: [
        makeRun(
          "gang",
          "hi",
          [
            { node: 0, gpus: 8 },
            { node: 1, gpus: 8 },
          ],
          { startSec: 7000, protectedUntilSec: 99999, isResumable: false },
        ),
      ],
      pending: [makeJob("j1", "lo", 8)],
    });
    expect(preemptedOf(result)).toEqual([["gang", "preempt-node-down", "preempted"]]);
    expect(startsOf(result)).toEqual([["j1", "0:8"]]);
    expect(explainReason(result.preemptions[0]!.reason)).toBe(
      "Ended at +2h00m: node 1 went down. The job is not resumable and ends as preempted.",
    );
  });
});

describe("runSchedulePass usage modes", () => {
  it("usage ratios follow the usage mode: a half-life H counts as a window of H / ln 2", () => {
    const result = pass({ usageMode: { kind: "decay", halfLifeSec: 604800 * Math.LN2 } });
    // Same window length as the default 7 days, so the same ratio.
    expect(result.ranking.rows.find((row) => row.id === "lo")!.usageRatio).toBeCloseTo(
      pass({}).ranking.rows.find((row) => row.id === "lo")!.usageRatio!,
      12,
    );
    expect(
      pass({ usageMode: { kind: "window", lookbackSec: 302400 } }).ranking.rows[2]!.usageRatio,
    ).toBeCloseTo(1_000_000 / (0.5 * 32 * 302400), 12);
  });
});

describe("runSchedulePass queue order and reservation", () => {
  it("priority orders jobs only within a budget; tied budgets keep submit order", () => {
    const tree = buildTree({ name: "lab", children: [{ name: "a" }, { name: "b" }] });
    const result = runSchedulePass({
      cluster: makeCluster(1, 2),
      nowSec: 0,
      tree,
      leafUsage: {},
      runs: [],
      pending: [
        makeJob("a-normal", "a", 1, { submitSec: 1 }),
        makeJob("b-normal", "b", 1, { submitSec: 2 }),
        makeJob("b-high", "b", 1, { submitSec: 3, priority: "high" }),
      ],
    });
    // a and b tie (no usage). b's high job takes b's own place, not a's.
    expect(result.starts.map((start) => start.jobId)).toEqual(["a-normal", "b-high"]);
    expect(result.waiting.map((wait) => wait.jobId)).toEqual(["b-normal"]);
  });

  it("reserves nodes for the first blocked job: lower-ranked jobs may not start there", () => {
    const extra = {
      cluster: makeCluster(2),
      runs: [
        makeRun("p0", "lo", [{ node: 0, gpus: 4 }], { startSec: 6000, protectedUntilSec: 9000 }),
        makeRun("p1", "lo", [{ node: 1, gpus: 4 }], { startSec: 6000, protectedUntilSec: 9600 }),
      ],
      pending: [
        makeJob("big", "hi", 16, { submitSec: 0 }),
        makeJob("small", "lo", 4, { submitSec: 0 }),
        makeJob("free", "lo", 2, { submitSec: 0, minRuntimeSec: 0 }),
      ],
    };
    const result = pass(extra);
    expect(startsOf(result)).toEqual([["free", "0:2"]]);
    expect(waitingOf(result)).toEqual([
      ["big", "wait-resources"],
      ["small", "wait-reservation"],
    ]);
    // big, of hi, holds the reservation; hi ranks first.
    expect(holderRankOf(extra)).toBe(1);
    expect(result.waiting.map((wait) => explainReason(wait.reason))).toEqual([
      "Waiting: needs 16 GPUs on 2 whole nodes; 6 are free (0 whole nodes); 2 are held by runs it may preempt (unallocated work, or unprotected runs of budgets ranked below its budget); 8 are held by protected runs of budgets ranked below its budget (enough for this job are out of protection by +2h40m); no budget ranks above its budget; nodes 0-1 are kept for it, expected ready by +2h40m.",
      "Waiting: needs 4 GPUs on one node; it would fit, but nodes 0-1 are kept for a job of hi that needs 16 GPUs (ready by +2h40m; a job protected only until then may use them); hi (at 0% of its weekly share) ranks above lo (at 21%), its sibling, so their own figures decide; 1 budget ranks above its budget.",
    ]);
  });

  it("a job whose preemptable whole nodes are kept for a job ahead says so, not that none are whole", () => {
    const free = (id: string, node: number) =>
      makeRun(id, "lo", [{ node, gpus: 8 }], { startSec: 6000, isAllocated: false });
    const result = pass({
      cluster: makeCluster(3),
      runs: [
        makeRun("p0", "lo", [{ node: 0, gpus: 8 }], { startSec: 6000, protectedUntilSec: 9600 }),
        free("f1", 1),
        free("f2", 2),
      ],
      pending: [makeJob("big", "hi", 24), makeJob("pair", "lo", 16, { minRuntimeSec: 4 * 3600 })],
    });
    expect(startsOf(result)).toEqual([]);
    expect(waitingOf(result)).toEqual([
      ["big", "wait-resources"],
      ["pair", "wait-resources"],
    ]);
    const pair = result.waiting[1]!.reason;
    expect(pair).toMatchObject({
      preemptableGpus: 16,
      keptForOther: { nodes: [0, 1, 2], readyAtSec: 9600 },
    });
    expect(explainReason(pair)).toBe(
      "Waiting: needs 16 GPUs on 2 whole nodes; 0 are free (0 whole nodes); 16 are held by runs it may preempt (unallocated work, or unprotected runs of budgets ranked below its budget); 8 are used by its own budget's runs; enough GPUs are free or preemptable, but not as whole nodes outside nodes 0-2, kept for a job ahead of it (expected to start by +2h40m); 1 budget ranks above its budget.",
    );
    expect(estimateStart(pair).note).toBe(
      "Enough GPUs are free or preemptable, but not as whole nodes outside nodes 0-2, kept for a job ahead of it (expected to start by +2h40m): it starts once that job has started, when runs end elsewhere to free what it needs, or when fewer jobs wait ahead of it.",
    );
  });

  it("nodes kept for a job ahead that hold nothing a waiting job could take are not its reason", () => {
    const protectedLo = (id: string, node: number) =>
      makeRun(id, "lo", [{ node, gpus: 8 }], { startSec: 6000, protectedUntilSec: 9600 });
    const result = pass({
      cluster: makeCluster(4),
      runs: [
        protectedLo("p0", 0),
        protectedLo("p1", 1),
        makeRun("h2", "hi", [{ node: 2, gpus: 4 }], { startSec: 6000 }),
        makeRun("h3", "hi", [{ node: 3, gpus: 4 }], { startSec: 6000 }),
      ],
      pending: [makeJob("big", "hi", 16), makeJob("six", "lo", 6)],
    });
    expect(waitingOf(result)).toEqual([
      ["big", "wait-resources"],
      ["six", "wait-resources"],
    ]);
    const six = result.waiting[1]!.reason;
    expect(six).not.toHaveProperty("keptForOther");
    expect(estimateStart(six).note).toBe(
      "Enough GPUs are free or preemptable, but not on one node: it starts when runs on one node end, or when fewer jobs wait ahead of it.",
    );
  });

  it("backfill: a lower-ranked job protected only until the reserved nodes are ready may use them", () => {
    const result = pass({
      cluster: makeCluster(2),
      runs: [
        makeRun("p0", "lo", [{ node: 0, gpus: 4 }], { startSec: 6000, protectedUntilSec: 9000 }),
        makeRun("p1", "lo", [{ node: 1, gpus: 4 }], { startSec: 6000, protectedUntilSec: 9600 }),
      ],
      pending: [
        makeJob("big", "hi", 16),
        makeJob("long", "lo", 4, { minRuntimeSec: 3600 }),
        makeJob("short", "lo", 4, { minRuntimeSec: 2400, submitSec: 1 }),
        makeJob("same-budget", "hi", 4, { minRuntimeSec: 1200, submitSec: 2 }),
      ],
    });
    // short's protection ends at 9600, when big's nodes are ready; same-budget ranks with big,
    // so big could never preempt it, and it may not backfill (nor is it a short job).
    expect(startsOf(result)).toEqual([["short", "0:4"]]);
    expect(result.starts[0]!.reason).toMatchObject({
      keptFor: { jobId: "big", readyAtSec: 9600 },
    });
    expect(waitingOf(result)).toEqual([
      ["big", "wait-resources"],
      ["same-budget", "wait-reservation"],
      ["long", "wait-reservation"],
    ]);
  });

  it("backfill (ADR 097): with no known ready time, jobs protected for at most 2 h may", () => {
    const extra = {
      cluster: makeCluster(2),
      // A run of big's own budget: big may never preempt it, so no ready time is known.
      runs: [
        makeRun("h0", "hi", [{ node: 0, gpus: 4 }], { startSec: 6000, protectedUntilSec: 6000 }),
      ],
      pending: [
        makeJob("big", "hi", 16),
        makeJob("two-hours", "lo", 4, { minRuntimeSec: 7200, submitSec: 1 }),
        makeJob("over", "lo", 4, { minRuntimeSec: 7201, submitSec: 2 }),
      ],
    };
    const result = pass(extra);
    expect(startsOf(result)).toEqual([["two-hours", "0:4"]]);
    expect(result.starts[0]!.reason).toMatchObject({ keptFor: { jobId: "big", readyAtSec: null } });
    expect(waitingOf(result)).toEqual([
      ["big", "wait-resources"],
      ["over", "wait-reservation"],
    ]);
    expect(explainReason(result.waiting[1]!.reason)).toContain(
      "(no expected start yet; a job protected for at most 2 h may use them)",
    );
    expect(runReferencePass(inputOf(extra))).toEqual(result);
  });

  it("keeps one node's unprotected runs for short jobs on 16 nodes or more (ADR 098)", () => {
    // Nodes 0-14 hold protected runs of lo; node 15 an unprotected one.
    const runsOn = (count: number) =>
      Array.from({ length: count }, (_, node) =>
        makeRun(`r${node}`, "lo", [{ node, gpus: 8 }], {
          protectedUntilSec: node === count - 1 ? 0 : 9000,
        }),
      );
    const train = makeJob("train", "hi", 8);
    const input = { cluster: makeCluster(16), runs: runsOn(16), pending: [train] };
    const result = pass(input);
    expect(startsOf(result)).toEqual([]);
    expect(result.waiting[0]!.reason).toMatchObject({
      rule: "wait-resources",
      keptForShort: { node: 15, gpus: 8 },
      readyAtSec: 9000,
    });
    expect(explainReason(result.waiting[0]!.reason)).toContain(
      "8 are on node 15, whose unprotected runs are kept for short jobs",
    );
    expect(runReferencePass(inputOf(input))).toEqual(result);
    // A short job preempts there at once; a gang job is kept from the node too.
    const debug = makeJob("debug", "hi", 4, { minRuntimeSec: 600 });
    const withDebug = pass({ ...input, pending: [train, debug] });
    expect(startsOf(withDebug)).toEqual([["debug", "15:4"]]);
    expect(preemptedOf(withDebug)).toEqual([["r15", "preempt-for-rank", "requeued"]]);
    const gang = makeJob("gang", "hi", 16);
    const withGang = pass({ ...input, pending: [gang] });
    expect(withGang.waiting[0]!.reason).toMatchObject({ keptForShort: { node: 15, gpus: 8 } });
    expect(runReferencePass(inputOf({ ...input, pending: [gang] }))).toEqual(withGang);
    // On 15 nodes no node is kept: the training job preempts the unprotected run.
    const small = pass({ cluster: makeCluster(15), runs: runsOn(15), pending: [train] });
    expect(startsOf(small)).toEqual([["train", "14:8"]]);
  });

  it("short jobs go first (ADR 098): before the reservation is made, and say so", () => {
    const input = {
      cluster: makeCluster(2),
      runs: [
        makeRun("p0", "lo", [{ node: 0, gpus: 4 }], { startSec: 6000, protectedUntilSec: 9000 }),
        makeRun("p1", "lo", [{ node: 1, gpus: 4 }], { startSec: 6000, protectedUntilSec: 9600 }),
      ],
      pending: [
        makeJob("big", "hi", 16),
        makeJob("debug", "hi", 4, { minRuntimeSec: 600, submitSec: 2 }),
      ],
    };
    const result = pass(input);
    // debug ranks with big, so may not backfill; as a short job it is tried before the queue,
    // when no node is kept for big yet.
    expect(startsOf(result)).toEqual([["debug", "0:4"]]);
    expect(result.starts[0]!.reason).toMatchObject({
      keptFor: null,
      short: { isShareGuardWaived: false, isBeforeQueue: true },
    });
    expect(explainReason(result.starts[0]!.reason)).toContain(
      "As a short job (protected for at most 15 minutes) it was tried before the ranked queue",
    );
    // Node 0 now runs hi's own job, which big never preempts: no ready time until it ends.
    expect(result.waiting[0]!.reason).toMatchObject({ rule: "wait-resources", readyAtSec: null });
    expect(runReferencePass(inputOf(input))).toEqual(result);
  });

  it("short jobs (ADR 092): preempt runs the share guard keeps, and say so", () => {
    // "lo" ranks below "hi" but holds less per share: the guard keeps its unprotected run from
    // hi's allocated jobs, except short ones.
    const result = pass({
      cluster: makeCluster(1),
      runs: [makeRun("u", "lo", [{ node: 0, gpus: 8 }], { startSec: 0, protectedUntilSec: 600 })],
      pending: [
        makeJob("train", "hi", 8, { minRuntimeSec: 3600 }),
        makeJob("debug", "hi", 8, { minRuntimeSec: 900, submitSec: 1 }),
      ],
    });
    expect(startsOf(result)).toEqual([["debug", "0:8"]]);
    expect(result.preemptions.map((p) => p.runId)).toEqual(["u"]);
    // Tried before the queue, the short job preempts u before train may ask for it.
    expect(result.starts[0]!.reason).toMatchObject({
      preemptedRunIds: ["u"],
      keptFor: null,
      short: { isShareGuardWaived: true, isBeforeQueue: true },
    });
    expect(waitingOf(result)).toEqual([["train", "wait-resources"]]);
  });

  it("a reservation ignores runs preempted in the same pass", () => {
    const result = pass({
      cluster: makeCluster(2),
      runs: [
        makeRun("u0", "lo", [{ node: 0, gpus: 8 }], { isAllocated: false, protectedUntilSec: 0 }),
        makeRun("p1", "lo", [{ node: 1, gpus: 8 }], { startSec: 6000, protectedUntilSec: 9600 }),
      ],
      pending: [makeJob("a", "hi", 8), makeJob("b", "hi", 16, { submitSec: 1 })],
    });
    expect(startsOf(result)).toEqual([["a", "0:8"]]);
    // Node 0 now holds a's run (same budget: never released for b), not the preempted u0.
    expect(result.waiting[0]!.reason).toMatchObject({
      rule: "wait-resources",
      reservedNodes: [0, 1],
      readyAtSec: null,
    });
  });

  it("same input gives the same output, and the input is not mutated", () => {
    const input: SchedulePassInput = {
      cluster: makeCluster(4),
      nowSec: NOW,
      tree: TREE,
      leafUsage: USAGE,
      runs: [makeRun("old", "lo", [{ node: 0, gpus: 8 }], { protectedUntilSec: 0 })],
      pending: [makeJob("a", "hi", 8), makeJob("b", "lo", 16), makeJob("c", "zero", 4)],
    };
    const copy = structuredClone(input);
    const first = runSchedulePass(input);
    expect(runSchedulePass(input)).toEqual(first);
    expect(input).toEqual(copy);
  });
});

describe("runSchedulePass: the comparison that decided (docs/ranking.md)", () => {
  // vision used less of its share than language, though dana used far more of hers than riley.
  const tree = buildTree({
    name: "lab",
    children: [
      {
        name: "vision",
        children: [
          { name: "dana", weight: 1 },
          { name: "sam", weight: 9 },
        ],
      },
      { name: "language", children: [{ name: "riley" }] },
    ],
  });
  const leafUsage = { "vision/dana": 400_000, "language/riley": 1_000_000 };
  const unprotected = { startSec: 0, protectedUntilSec: 3600 };

  it("a start that preempted names where the two budgets part, then the leaves", () => {
    const result = pass({
      tree,
      leafUsage,
      cluster: makeCluster(1),
      runs: [makeRun("r0", "language/riley", [{ node: 0, gpus: 8 }], unprotected)],
      pending: [makeJob("j1", "vision/dana", 4)],
    });
    expect(preemptedOf(result)).toEqual([["r0", "preempt-for-rank", "requeued"]]);
    const start = result.starts[0]!.reason;
    expect(start).toMatchObject({
      rule: "start-allocated",
      outranked: {
        budget: { path: "language/riley" },
        parting: { higher: { path: "vision" }, lower: { path: "language" } },
      },
    });
    expect(explainReason(start)).toMatch(
      /after preempting 1 run: vision \(at \d+% of its weekly share\) ranks above language \(at \d+%\), where the two budgets' branches part, so vision\/dana \(at \d+% of its weekly share\) ranks above language\/riley \(at \d+%\); it ranks 2 \(1 budget ranks above it\)/,
    );
  });

  it("a wait for GPUs names the budget above holding the most, and where the two part", () => {
    const result = pass({
      tree,
      leafUsage,
      cluster: makeCluster(4),
      runs: [
        makeRun("d0", "vision/dana", [{ node: 0, gpus: 8 }]),
        makeRun("d1", "vision/dana", [{ node: 1, gpus: 8 }]),
        makeRun("d2", "vision/dana", [{ node: 2, gpus: 8 }]),
        makeRun("s3", "vision/sam", [{ node: 3, gpus: 8 }]),
      ],
      pending: [makeJob("j1", "language/riley", 8)],
    });
    expect(waitingOf(result)).toEqual([["j1", "wait-resources"]]);
    const reason = result.waiting[0]!.reason;
    expect(reason).toMatchObject({
      heldByHigherGpus: 32,
      heldByOwnGpus: 0,
      heldMostBy: {
        budget: { path: "vision/dana" },
        gpus: 24,
        parting: { higher: { path: "vision" }, lower: { path: "language" } },
      },
    });
    expect(explainReason(reason)).toContain(
      "32 are used by budgets ranked at or above its budget, 24 of them by vision/dana: vision (at ",
    );
  });

  it("an unallocated job is told when free GPUs are split across nodes", () => {
    const result = pass({
      tree,
      leafUsage,
      cluster: makeCluster(2),
      runs: [
        makeRun("d0", "vision/dana", [{ node: 0, gpus: 2 }]),
        makeRun("d1", "vision/dana", [{ node: 1, gpus: 1 }]),
      ],
      pending: [makeJob("j1", "language/riley", 8, { minRuntimeSec: 0 })],
    });
    expect(result.waiting[0]!.reason).toMatchObject({
      rule: "wait-unallocated",
      freeGpus: 13,
      mostFreeOnOneNode: 7,
    });
    expect(explainReason(result.waiting[0]!.reason)).toContain(
      "13 are free, but no healthy node has 8 free (at most 7 on one)",
    );
  });

  it("a wait with nothing held above names no other budget", () => {
    const result = pass({
      tree,
      leafUsage,
      cluster: makeCluster(1),
      runs: [makeRun("r0", "language/riley", [{ node: 0, gpus: 8 }])],
      pending: [makeJob("j1", "language/riley", 8)],
    });
    expect(result.waiting[0]!.reason).toMatchObject({
      heldByHigherGpus: 8,
      heldByOwnGpus: 8,
      heldMostBy: null,
    });
    const sentence = explainReason(result.waiting[0]!.reason);
    expect(sentence).not.toContain("branches part");
    // Its own budget's run is not counted as another budget's.
    expect(sentence).toContain("8 are used by its own budget's runs");
    expect(sentence).not.toContain("ranked at or above its budget");
  });
});
