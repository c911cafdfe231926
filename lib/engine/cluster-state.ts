import { isProtected, preemptionOutcome } from "./contract";
import { createGpuPool, type GpuPool } from "./placement";
import { compareVictims, type VictimCandidate, type VictimSlot } from "./preemption";
import type { BudgetRef, DrainCompleteDecision, PreemptDecision, PreemptReason } from "./reasons";
import type { SchedulePassInput } from "./schedule-pass";
import type { ActiveRun } from "./types";

/** A run holding GPUs during the pass: an input run or a start of this pass. */
export type LiveRun = VictimCandidate & {
  /** Leaf budget charged for the run. */
  budgetId: string;
  protectedUntilSec: number;
  isGone: boolean;
  isProtectedNow: boolean;
  run: ActiveRun | null;
};

/** The cluster as a pass works on it: GPUs, runs still holding them, decisions so far. */
export type ClusterState = {
  pool: GpuPool;
  /** Input runs first (index = position in `input.runs` order of survivors), then new starts. */
  live: LiveRun[];
  /** Indices into `live` of the runs holding GPUs on each pool position. */
  heldByPosition: number[][];
  preemptions: PreemptDecision[];
  drainsCompleted: DrainCompleteDecision[];
  /**
   * Unprotected runs on healthy positions, in `compareVictims` order, with their GPUs there:
   * built on first call (most passes never preempt), as the runs stood when loaded.
   */
  victimsByPosition: () => VictimSlot[][];
  /** Ends a live run now: frees its GPUs and records the preemption. */
  endRun: (entry: LiveRun, reason: PreemptReason) => void;
};

/**
 * Loads nodes and runs for a pass (internal): runs touching a down node end at once, protected
 * or not; unprotected runs touching a draining node are preempted; draining nodes left empty are
 * reported. Throws on broken invariants: a run on an unknown node, a node over capacity.
 *
 * @example loadClusterState(input, rankOf, budgetRef).preemptions // node-down and drain ones
 */
export function loadClusterState(
  input: SchedulePassInput,
  rankOf: (budgetId: string) => number,
  budgetRef: (budgetId: string) => BudgetRef,
): ClusterState {
  const { cluster, nowSec } = input;
  const pool = createGpuPool(cluster.nodes);
  const healthByIndex = new Map(cluster.nodes.map((node) => [node.index, node.health]));
  const hasDown = cluster.nodes.some((node) => node.health === "down");
  const hasDraining = cluster.nodes.some((node) => node.health === "draining");
  const preemptions: PreemptDecision[] = [];
  const live: LiveRun[] = [];
  const heldByPosition: number[][] = Array.from({ length: pool.free.length }, () => []);

  const endRun = (entry: LiveRun, reason: PreemptReason): void => {
    entry.isGone = true;
    for (const slice of entry.slices)
      pool.free[slice.position] = pool.free[slice.position]! + slice.gpus;
    const run = entry.run!;
    preemptions.push({
      runId: run.id,
      jobId: run.jobId,
      budgetId: run.budgetId,
      gpus: run.gpus,
      outcome: reason.outcome,
      reason,
    });
  };

  for (const run of input.runs) {
    const slices = run.placement.map((slice) => {
      const position = pool.positionOf.get(slice.node);
      if (position === undefined) {
        throw new RangeError(`Run "${run.id}" is placed on unknown node ${slice.node}.`);
      }
      return { position, gpus: slice.gpus };
    });
    const entry: LiveRun = {
      id: run.id,
      budgetId: run.budgetId,
      isAllocated: run.isAllocated,
      rank: rankOf(run.budgetId),
      startSec: run.startSec,
      gpus: run.gpus,
      slices,
      protectedUntilSec: run.protectedUntilSec,
      isGone: false,
      isProtectedNow: isProtected(run, nowSec),
      run,
    };
    const downNode = hasDown
      ? run.placement.find((slice) => healthByIndex.get(slice.node) === "down")
      : undefined;
    if (downNode) {
      entry.isGone = true;
      preemptions.push({
        runId: run.id,
        jobId: run.jobId,
        budgetId: run.budgetId,
        gpus: run.gpus,
        outcome: preemptionOutcome(run.isResumable),
        reason: {
          rule: "preempt-node-down",
          atSec: nowSec,
          victim: budgetRef(run.budgetId),
          victimStartSec: run.startSec,
          node: downNode.node,
          outcome: preemptionOutcome(run.isResumable),
        },
      });
      continue;
    }
    for (const slice of slices) {
      pool.free[slice.position] = pool.free[slice.position]! - slice.gpus;
      if (pool.free[slice.position]! < 0) {
        throw new RangeError(`Node ${pool.indexOf[slice.position]} holds more GPUs than it has.`);
      }
    }
    const index = live.length;
    live.push(entry);
    for (const slice of slices) heldByPosition[slice.position]!.push(index);
  }
  for (const entry of hasDraining ? live : []) {
    if (entry.isGone || entry.isProtectedNow) continue;
    const draining = entry.run!.placement.find(
      (slice) => healthByIndex.get(slice.node) === "draining",
    );
    if (!draining) continue;
    endRun(entry, {
      rule: "preempt-drain",
      atSec: nowSec,
      victim: budgetRef(entry.run!.budgetId),
      victimStartSec: entry.startSec,
      protectedUntilSec: entry.protectedUntilSec,
      node: draining.node,
      outcome: preemptionOutcome(entry.run!.isResumable),
    });
  }
  const drainsCompleted: DrainCompleteDecision[] = [];
  for (let position = 0; hasDraining && position < pool.free.length; position += 1) {
    const node = pool.indexOf[position]!;
    if (healthByIndex.get(node) !== "draining") continue;
    if (heldByPosition[position]!.every((index) => live[index]!.isGone)) {
      drainsCompleted.push({ node, reason: { rule: "drain-complete", atSec: nowSec, node } });
    }
  }
  // Victim lists: runs on healthy nodes in preference order (unallocated, worst rank, latest).
  let victims: VictimSlot[][] | null = null;
  const victimsByPosition = (): VictimSlot[][] =>
    (victims ??= heldByPosition.map((indices, position) =>
      pool.isUsable[position]
        ? indices
            // Protection is fixed for the pass: protected runs are never victims.
            .filter((index) => !live[index]!.isGone && !live[index]!.isProtectedNow)
            .sort((a, b) => compareVictims(live[a]!, live[b]!))
            .map((index) => ({
              candidate: index,
              gpus: live[index]!.slices.find((slice) => slice.position === position)!.gpus,
            }))
        : [],
    ));

  return {
    pool,
    live,
    heldByPosition,
    preemptions,
    drainsCompleted,
    victimsByPosition,
    endRun,
  };
}
