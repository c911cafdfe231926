import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isBackfillOpen } from "./backfill-rule";
import { createPassScratch } from "./pass-scratch";
import { isProtected } from "./contract";
import { explainReason } from "./explain";
import { formatUtcClock } from "./format-time";
import { rankBudgets } from "./fair-tree";
import { createHoldings } from "./holdings";
import { createStandingQueue } from "./standing-queue";
import { createStandingRuns } from "./standing-runs";
import { createGpuPool, placeJob } from "./placement";
import {
  rankLookup,
  runFastPass,
  runSchedulePass,
  type SchedulePassInput,
  type SchedulePassResult,
} from "./schedule-pass";
import { isShortJob, SHORT_MAX_RUNTIME_SEC } from "./short-jobs";
import { buildTree, type TreeSpec } from "./test-helpers";
import { computeLeafUsage } from "./usage-window";
import type { ActiveRun, NodeHealth, PendingJob, Priority, UsageRun } from "./types";

const NOW = 50_000;
const RUNS = { numRuns: 150 };

const scenario = fc.record({
  programs: fc.array(
    fc.record({
      weight: fc.constantFrom(0, 1, 1, 2, 3),
      children: fc.array(fc.constantFrom(0, 1, 1, 2, 5), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  usage: fc.array(fc.constantFrom(0, 0, 100, 1000, 5000, 20_000), { minLength: 16, maxLength: 16 }),
  nodeSize: fc.constantFrom(4, 8),
  health: fc.array(
    fc.constantFrom<NodeHealth>("healthy", "healthy", "healthy", "healthy", "draining", "down"),
    {
      minLength: 1,
      maxLength: 6,
    },
  ),
  runs: fc.array(
    fc.record({
      gpus: fc.integer({ min: 1, max: 8 }),
      isGang: fc.boolean(),
      leaf: fc.nat(15),
      isAllocated: fc.boolean(),
      startAgoSec: fc.integer({ min: 0, max: 40_000 }),
      minRuntimeSec: fc.constantFrom(600, 3600, 14_400),
      isResumable: fc.boolean(),
    }),
    { maxLength: 16 },
  ),
  jobs: fc.array(
    fc.record({
      gpus: fc.constantFrom(1, 2, 3, 4, 6, 8, 12, 16, 24, 40),
      leaf: fc.nat(16),
      minRuntimeSec: fc.constantFrom(0, 600, 3600, 3600, 40_000),
      priority: fc.constantFrom<Priority>("low", "normal", "high"),
      submitSec: fc.integer({ min: 0, max: 5000 }),
    }),
    { maxLength: 15 },
  ),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** Builds a valid pass input: runs packed first-fit onto the nodes, never over capacity. */
/** A pass input whose queue is a list, as these properties read it. */
type ListInput = SchedulePassInput & {
  pending: readonly PendingJob[];
  runs: readonly ActiveRun[];
  leafUsage: Record<string, number>;
};

function toInput(s: Scenario): ListInput {
  const spec: TreeSpec = {
    name: "lab",
    children: s.programs.map((program, p) => ({
      name: `p${p}`,
      weight: program.weight,
      children: program.children.map((weight, c) => ({ name: `l${c}`, weight })),
    })),
  };
  const tree = buildTree(spec);
  const leaves = tree.nodes.filter((node) => node.isLeaf).map((node) => node.id);
  const leafUsage: Record<string, number> = {};
  leaves.forEach((id, i) => (leafUsage[id] = s.usage[i % s.usage.length]!));
  const nodes = s.health.map((health, index) => ({ index, gpus: s.nodeSize, health }));
  const free: number[] = nodes.map((node) => node.gpus);
  const runs: ActiveRun[] = [];
  s.runs.forEach((run, i) => {
    let placement: { node: number; gpus: number }[] | null = null;
    if (run.isGang) {
      const whole = free.map((f, node) => (f === s.nodeSize ? node : -1)).filter((n) => n >= 0);
      if (whole.length >= 2)
        placement = whole.slice(0, 2).map((node) => ({ node, gpus: s.nodeSize }));
    } else {
      const gpus = Math.min(run.gpus, s.nodeSize);
      const node = free.findIndex((f) => f >= gpus);
      if (node >= 0) placement = [{ node, gpus }];
    }
    if (!placement) return;
    for (const slice of placement) free[slice.node] = free[slice.node]! - slice.gpus;
    const startSec = NOW - run.startAgoSec;
    runs.push({
      id: `r${i}`,
      jobId: `rj${i}`,
      budgetId: leaves[run.leaf % leaves.length]!,
      userId: "u",
      gpus: placement.reduce((sum, slice) => sum + slice.gpus, 0),
      placement,
      startSec,
      isAllocated: run.isAllocated,
      protectedUntilSec: run.isAllocated ? startSec + run.minRuntimeSec : startSec,
      isResumable: run.isResumable,
      priority: "normal",
    });
  });
  const pending: PendingJob[] = s.jobs.map((job, i) => ({
    id: `j${i}`,
    // Index 16 charges the root: an inner node, refused.
    budgetId: job.leaf === 16 ? "root" : leaves[job.leaf % leaves.length]!,
    userId: "u",
    gpus: job.gpus,
    minRuntimeSec: job.minRuntimeSec,
    isResumable: true,
    priority: job.priority,
    submitSec: job.submitSec,
  }));
  return {
    cluster: { name: "c", nodes, lookbackSec: 604_800, maxMinRuntimeSec: 28_800 },
    nowSec: NOW,
    tree,
    leafUsage,
    runs,
    pending,
  };
}

function check(property: (input: ListInput, result: SchedulePassResult) => void): void {
  fc.assert(
    fc.property(scenario, (s) => {
      const input = toInput(s);
      const result = runSchedulePass(input);
      property(input, result);
    }),
    RUNS,
  );
}

describe("scheduling pass properties", () => {
  it("no GPU is given twice: no node over capacity, starts only on healthy nodes", () => {
    check((input, result) => {
      const used = new Map<number, number>();
      const ended = new Set(result.preemptions.map((p) => p.runId));
      const health = new Map(input.cluster.nodes.map((node) => [node.index, node.health]));
      const slices = [
        ...input.runs.filter((run) => !ended.has(run.id)).flatMap((run) => run.placement),
        ...result.starts.flatMap((start) => start.placement),
      ];
      for (const slice of slices) used.set(slice.node, (used.get(slice.node) ?? 0) + slice.gpus);
      for (const node of input.cluster.nodes) {
        expect(used.get(node.index) ?? 0).toBeLessThanOrEqual(node.gpus);
      }
      for (const start of result.starts) {
        expect(start.placement.reduce((sum, slice) => sum + slice.gpus, 0)).toBe(start.gpus);
        expect(new Set(start.placement.map((slice) => slice.node)).size).toBe(
          start.placement.length,
        );
        for (const slice of start.placement) expect(health.get(slice.node)).toBe("healthy");
      }
    });
  });

  it("a protected run is never preempted, except when a node under it goes down", () => {
    check((input, result) => {
      const runs = new Map(input.runs.map((run) => [run.id, run]));
      for (const preemption of result.preemptions) {
        if (preemption.reason.rule === "preempt-node-down") continue;
        expect(isProtected(runs.get(preemption.runId)!, input.nowSec)).toBe(false);
      }
    });
  });

  it("preemption only frees GPUs for an allocated job of a strictly better-ranked budget that starts now", () => {
    check((input, result) => {
      const runs = new Map(input.runs.map((run) => [run.id, run]));
      const started = new Map(result.starts.map((start) => [start.jobId, start]));
      const health = new Map(input.cluster.nodes.map((node) => [node.index, node.health]));
      const rank = (budgetId: string) => result.ranking.rankByBudgetId[budgetId]!;
      for (const preemption of result.preemptions) {
        const run = runs.get(preemption.runId)!;
        const reason = preemption.reason;
        if (reason.rule === "preempt-drain") {
          expect(run.placement.some((slice) => health.get(slice.node) === "draining")).toBe(true);
          continue;
        }
        if (reason.rule === "preempt-node-down") {
          expect(run.placement.some((slice) => health.get(slice.node) === "down")).toBe(true);
          continue;
        }
        const start = started.get(reason.preemptor.jobId)!;
        expect(start.isAllocated).toBe(true);
        expect(start.reason).toMatchObject({ preemptedRunIds: expect.arrayContaining([run.id]) });
        if (run.isAllocated) expect(rank(run.budgetId)).toBeGreaterThan(rank(start.budgetId));
      }
    });
  });

  it("unallocated time is never charged: zero min runtime or zero share starts unallocated", () => {
    check((input, result) => {
      const share = new Map(input.tree.nodes.map((node) => [node.id, node.effectiveShare]));
      const jobs = new Map(input.pending.map((job) => [job.id, job]));
      const usageRuns: UsageRun[] = [];
      for (const start of result.starts) {
        const job = jobs.get(start.jobId)!;
        expect(start.isAllocated).toBe(job.minRuntimeSec > 0 && share.get(job.budgetId)! > 0);
        usageRuns.push({
          ...start,
          startSec: input.nowSec,
          endSec: null,
          isAllocated: start.isAllocated,
        });
      }
      // Charging all of them equals charging only the allocated ones.
      const later = input.nowSec + 3600;
      expect(computeLeafUsage(usageRuns, later)).toEqual(
        computeLeafUsage(
          usageRuns.filter((run) => run.isAllocated),
          later,
        ),
      );
    });
  });

  it("work-conserving: no waiting job fits on GPUs left free (reservation and backfill rules)", () => {
    // Precisely: after the pass, with the GPUs of surviving runs and new starts taken,
    // - an unallocated waiting job cannot be placed on the free GPUs of healthy nodes;
    // - an allocated waiting job cannot be placed there outside the nodes reserved for the
    //   first blocked allocated job (the holder; the holder itself not even on its own nodes);
    // - nor anywhere, if it could backfill: its budget ranks strictly below the holder's and its
    //   protection would end by the time the reserved nodes are ready (when no ready time is
    //   known: it is protected for at most 2 hours, ADR 097);
    // - nor anywhere, if it is a short job and the reserved nodes are not ready within 15 minutes.
    // Error jobs never start.
    check((input, result) => {
      const pool = createGpuPool(input.cluster.nodes);
      const ended = new Set(result.preemptions.map((p) => p.runId));
      const occupy = (node: number, gpus: number) => {
        const position = pool.positionOf.get(node)!;
        pool.free[position] = pool.free[position]! - gpus;
      };
      for (const run of input.runs) {
        if (!ended.has(run.id)) for (const slice of run.placement) occupy(slice.node, slice.gpus);
      }
      for (const start of result.starts) {
        for (const slice of start.placement) occupy(slice.node, slice.gpus);
      }
      const holder = result.waiting.find(
        (wait) => wait.reason.rule === "wait-resources" && wait.reason.reservedNodes.length > 0,
      );
      const excluded = new Uint8Array(pool.free.length);
      let holderRank = Number.POSITIVE_INFINITY;
      let readyAtSec: number | null = null;
      if (holder?.reason.rule === "wait-resources") {
        for (const node of holder.reason.reservedNodes) excluded[pool.positionOf.get(node)!] = 1;
        holderRank = holder.reason.budget.rank!;
        readyAtSec = holder.reason.readyAtSec;
      }
      for (const wait of result.waiting) {
        if (wait.isError) continue;
        const job = input.pending.find((pending) => pending.id === wait.jobId)!;
        const rank = result.ranking.rankByBudgetId[job.budgetId]!;
        const canBackfill =
          rank > holderRank && isBackfillOpen(readyAtSec, input.nowSec, job.minRuntimeSec);
        // A short job (ADR 092) may use them unless they are ready within 15 minutes.
        const isShortOnKept =
          wait.reason.rule !== "wait-unallocated" &&
          isShortJob(job, pool.nodeSizeGpus) &&
          (readyAtSec === null || input.nowSec + SHORT_MAX_RUNTIME_SEC <= readyAtSec);
        const mayUseReserved =
          wait.reason.rule === "wait-unallocated" ||
          wait === holder ||
          canBackfill ||
          isShortOnKept;
        const fits = placeJob(pool, job.gpus, mayUseReserved ? undefined : excluded);
        expect(fits, `${wait.jobId} ${wait.reason.rule}`).toBeNull();
      }
    });
  });

  it("every decision explains itself in one sentence", () => {
    check((_, result) => {
      const reasons = [
        ...result.starts.map((start) => start.reason),
        ...result.preemptions.map((preemption) => preemption.reason),
        ...result.waiting.map((wait) => wait.reason),
        ...result.drainsCompleted.map((drain) => drain.reason),
      ];
      for (const reason of reasons) {
        const sentence = explainReason(reason, { formatTime: formatUtcClock });
        expect(sentence).toMatch(/^[A-Z].*\.$/s);
        expect(sentence).not.toMatch(/undefined|NaN|null/);
      }
    });
  });

  it("a wait for GPUs counts every GPU of the cluster once: free, preemptable, protected, held, kept, unusable", () => {
    check((input, result) => {
      const clusterGpus = input.cluster.nodes.reduce((sum, node) => sum + node.gpus, 0);
      for (const { reason } of result.waiting) {
        if (reason.rule !== "wait-resources") continue;
        const parts =
          reason.freeGpus +
          reason.preemptableGpus! +
          reason.protectedGpus +
          reason.heldByHigherGpus +
          reason.heldWithinShareGpus +
          (reason.keptForShort?.gpus ?? 0) +
          reason.unusableGpus;
        expect(parts).toBe(clusterGpus);
      }
    });
  });

  it("every preemption between budgets passes the share guard on what they held just before, but a short job's, which says when it did not", () => {
    check((input, result) => {
      const runs = new Map(input.runs.map((run) => [run.id, run]));
      const endedByNodes = new Set(
        result.preemptions
          .filter((p) => p.reason.rule === "preempt-drain" || p.reason.rule === "preempt-node-down")
          .map((p) => p.runId),
      );
      const holdings = createHoldings(
        input.tree,
        input.runs.filter((run) => run.isAllocated && !endedByNodes.has(run.id)),
      );
      for (const start of result.starts) {
        const victims =
          start.reason.rule === "start-allocated"
            ? start.reason.preemptedRunIds.map((id) => runs.get(id)!)
            : [];
        const verdicts = victims
          .filter((run) => run.isAllocated)
          .map((victim) =>
            holdings.mayPreempt(start.budgetId, victim.budgetId, start.gpus, victim.gpus),
          );
        // A short job's start (ADR 092) may waive the guard, and says whether it did.
        const short = start.reason.rule === "start-allocated" ? start.reason.short : undefined;
        const isWaived = short?.isShareGuardWaived ?? false;
        expect(verdicts.every(Boolean)).toBe(!isWaived);
        for (const victim of victims)
          if (victim.isAllocated) holdings.add(victim.budgetId, -victim.gpus);
        if (start.isAllocated) holdings.add(start.budgetId, start.gpus);
      }
    });
  });

  it("without wait reasons a pass decides exactly the same and counts who waits", () => {
    check((input, result) => {
      const quiet = runSchedulePass({ ...input, describeWaits: false });
      expect(quiet.starts).toEqual(result.starts);
      expect(quiet.preemptions).toEqual(result.preemptions);
      expect(quiet.drainsCompleted).toEqual(result.drainsCompleted);
      expect(quiet.waiting).toEqual(result.waiting.filter((wait) => wait.isError));
      const waits = result.waiting.filter((wait) => !wait.isError);
      expect(quiet.waitingCounts).toEqual({
        allocated: waits.filter((wait) => wait.reason.rule !== "wait-unallocated").length,
        unallocated: waits.filter((wait) => wait.reason.rule === "wait-unallocated").length,
      });
    });
  });

  it("standing queue and runs decide exactly what the same jobs and runs as lists decide", () => {
    check((input, result) => {
      const queue = createStandingQueue(input.tree, input.cluster);
      // Errors keep the order jobs joined in; the last one is taken out and queued again.
      for (const job of input.pending) queue.add(job);
      const last = input.pending.at(-1);
      if (last) {
        queue.remove(last.id);
        queue.add(last);
      }
      // Runs in input order, with a gap where a run came and went.
      const runs = createStandingRuns(input.cluster.nodes);
      input.runs.forEach((run, i) => {
        if (i === 1) {
          runs.add({ ...run, id: "gone" });
          runs.remove("gone");
        }
        runs.add(run);
      });
      const { ranking } = result;
      const standing = {
        ...input,
        ranking,
        rankOf: rankLookup(ranking),
        queue,
        runs: runs.state,
        scratch: createPassScratch(),
      };
      expect(runFastPass(standing).result).toEqual(result);
      // A pass leaves them as it found them.
      expect(runFastPass(standing).result).toEqual(result);
      const quiet = runFastPass({ ...standing, describeWaits: false }).result;
      expect(quiet).toEqual(runSchedulePass({ ...input, describeWaits: false }));
    });
  });

  it("every pending job is started or waiting, exactly once", () => {
    check((input, result) => {
      const seen = [
        ...result.starts.map((s) => s.jobId),
        ...result.waiting.map((w) => w.jobId),
      ].sort();
      expect(seen).toEqual(input.pending.map((job) => job.id).sort());
    });
  });

  it("same input gives the same output, whatever the order of pending jobs and runs", () => {
    check((input, result) => {
      expect(runSchedulePass(input)).toEqual(result);
      const shuffled = runSchedulePass({
        ...input,
        pending: [...input.pending].reverse(),
        runs: [...input.runs].reverse(),
      });
      expect(shuffled.starts).toEqual(result.starts);
      expect([...shuffled.preemptions].sort((a, b) => (a.runId < b.runId ? -1 : 1))).toEqual(
        [...result.preemptions].sort((a, b) => (a.runId < b.runId ? -1 : 1)),
      );
    });
  });
});

describe("Fair Tree properties", () => {
  it("if sibling A has a higher LF than sibling B, every leaf of A ranks before every leaf of B", () => {
    check((input, result) => {
      const { nodes } = input.tree;
      const leavesUnder = (index: number): number[] =>
        nodes[index]!.isLeaf ? [index] : nodes[index]!.childIndices.flatMap(leavesUnder);
      for (const parent of nodes) {
        for (const a of parent.childIndices) {
          for (const b of parent.childIndices) {
            const lfA = result.ranking.rows[a]!.levelFairShare!;
            const lfB = result.ranking.rows[b]!.levelFairShare!;
            if (!(lfA > lfB)) continue;
            const worstA = Math.max(...leavesUnder(a).map((i) => result.ranking.rows[i]!.rank!));
            const bestB = Math.min(...leavesUnder(b).map((i) => result.ranking.rows[i]!.rank!));
            expect(worstA).toBeLessThan(bestB);
          }
        }
      }
    });
  });

  it("ranks are competition ranks: a leaf's rank is 1 + the number of leaves ranked before it", () => {
    check((input) => {
      const ranking = rankBudgets(input.tree, input.leafUsage, { capacityGpus: 8, windowSec: 1 });
      const ranks = Object.values(ranking.rankByBudgetId);
      for (const rank of ranks) expect(rank).toBe(1 + ranks.filter((other) => other < rank).length);
    });
  });
});
