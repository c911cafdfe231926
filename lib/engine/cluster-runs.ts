import type { BudgetSlots } from "./budget-slots";
import { heldOn } from "./cluster-nodes";
import { isProtected, preemptionOutcome } from "./contract";
import type { LiveRun } from "./live-run";
import { markAllNodeRunsStale, touchNodeRuns, type NodeRuns } from "./node-runs";
import { slicesOf, type GpuPool } from "./placement";
import type { BudgetRef, PreemptDecision, PreemptReason } from "./reasons";
import type { StandingRunsState } from "./standing-runs";
import type { ActiveRun, NodeHealth } from "./types";

// The runs as a pass loads them (`loadClusterState`): runs on down nodes end at once, the others
// take their GPUs; and how a loaded run ends in the pass.

/** What loading the runs of one pass reads and writes. Internal to `loadClusterState`. */
export type RunLoading = {
  readonly nowSec: number;
  readonly pool: GpuPool;
  /** Health per pool position. */
  readonly healthAt: readonly NodeHealth[];
  readonly downAt: readonly number[];
  /** Node index -> pool position. */
  readonly positionOf: (node: number) => number;
  readonly live: LiveRun[];
  readonly heldByPosition: number[][];
  readonly nodeRuns: NodeRuns | null;
  readonly budgetRef: (budgetId: string) => BudgetRef;
  readonly preemptions: PreemptDecision[];
  /** Allocated runs ended while loading, taken off the standing totals of holdings. */
  readonly endedAllocated: LiveRun[];
  /** Standing entries ended in this pass, to stand again once it is done. */
  readonly ended: LiveRun[];
};

/**
 * Ends a live run now: frees its GPUs and records the preemption (`ClusterState.endRun`).
 *
 * @example endLoadedRun(loading, entry, { rule: "preempt-drain", ... })
 */
export function endLoadedRun(loading: RunLoading, entry: LiveRun, reason: PreemptReason): void {
  const { pool, nodeRuns } = loading;
  if (entry.isAllocated) loading.endedAllocated.push(entry);
  entry.isGone = true;
  loading.ended.push(entry);
  for (const slice of entry.slices) {
    pool.free[slice.position] = pool.free[slice.position]! + slice.gpus;
    if (nodeRuns) touchNodeRuns(nodeRuns, slice.position);
  }
  const run = entry.run!;
  loading.preemptions.push({
    runId: run.id,
    jobId: run.jobId,
    budgetId: run.budgetId,
    gpus: run.gpus,
    outcome: reason.outcome,
    reason,
  });
}

/** A run on a down node ends at once, protected or not (its GPUs are not taken). True when it ended. */
function endIfDown(loading: RunLoading, entry: LiveRun, run: ActiveRun): boolean {
  const { healthAt, positionOf, nodeRuns, nowSec } = loading;
  const downNode =
    loading.downAt.length > 0
      ? run.placement.find((slice) => healthAt[positionOf(slice.node)] === "down")
      : undefined;
  if (!downNode) return false;
  entry.isGone = true;
  loading.ended.push(entry);
  if (nodeRuns) for (const slice of entry.slices) touchNodeRuns(nodeRuns, slice.position);
  if (entry.isAllocated) loading.endedAllocated.push(entry);
  loading.preemptions.push({
    runId: run.id,
    jobId: run.jobId,
    budgetId: run.budgetId,
    gpus: run.gpus,
    outcome: preemptionOutcome(run.isResumable),
    reason: {
      rule: "preempt-node-down",
      atSec: nowSec,
      victim: loading.budgetRef(run.budgetId),
      victimStartSec: run.startSec,
      node: downNode.node,
      outcome: preemptionOutcome(run.isResumable),
    },
  });
  return true;
}

/** A run on a down node ends at once; any other takes its GPUs. False when it ended. */
function takeGpus(loading: RunLoading, entry: LiveRun, run: ActiveRun): boolean {
  if (endIfDown(loading, entry, run)) return false;
  const { pool } = loading;
  for (const slice of entry.slices) {
    pool.free[slice.position] = pool.free[slice.position]! - slice.gpus;
    if (pool.free[slice.position]! < 0) {
      throw new RangeError(`Node ${pool.indexOf[slice.position]} holds more GPUs than it has.`);
    }
  }
  return true;
}

/**
 * Loads runs given as a list: each run not on a down node becomes a live entry, in input order,
 * and takes its GPUs; `rankBySlot` gets the ranks of the slots they brought. Throws when a node
 * holds more GPUs than it has.
 *
 * @example loadRunList(loading, input.runs, budgetSlots, rankOf, rankBySlot)
 */
export function loadRunList(
  loading: RunLoading,
  runs: readonly ActiveRun[],
  budgetSlots: BudgetSlots,
  rankOf: (budgetId: string) => number,
  rankBySlot: number[],
): void {
  const { live, heldByPosition, nowSec } = loading;
  for (const run of runs) {
    const slices = slicesOf(run, loading.positionOf);
    const entry: LiveRun = {
      id: run.id,
      budgetId: run.budgetId,
      budgetSlot: budgetSlots.slotOf(run.budgetId),
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
    if (!takeGpus(loading, entry, run)) continue;
    const index = live.length;
    live.push(entry);
    for (const slice of slices) heldByPosition[slice.position]!.push(index);
  }
  for (let slot = rankBySlot.length; slot < budgetSlots.ids.length; slot += 1) {
    rankBySlot.push(rankOf(budgetSlots.ids[slot]!));
  }
}

/**
 * Loads standing runs for a pass: their entries stay, with their per-pass fields (gone,
 * protected now, rank) kept where the last pass left them valid, else set anew. `isTotalled`:
 * the pool already holds the standing totals, and only runs on down nodes need a look (their
 * GPUs come back); else every run takes its GPUs. `hasTotals`: the preemptable totals were
 * asked for this pass (they set protection). Throws when a node holds more GPUs than it has.
 *
 * @example loadStandingRuns(loading, standing, rankOf, rankBySlot, isTotalled, preemptable !== null)
 */
export function loadStandingRuns(
  loading: RunLoading,
  standing: StandingRunsState,
  rankOf: (budgetId: string) => number,
  rankBySlot: number[],
  isTotalled: boolean,
  hasTotals: boolean,
): void {
  const { live, nowSec, pool } = loading;
  if (hasTotals && standing.isProtectionKept) {
    // Entries stay with their per-pass fields: gone as removed (`finish` undoes this pass's
    // ends), protected as the totals just left them, ranked as when last ranked. Only entries
    // whose budget may rank otherwise get their rank again.
    const isSame =
      standing.rankBySlotSeen === rankBySlot || isSameRanks(standing.rankBySlotSeen, rankBySlot);
    const from = isSame ? standing.rankedCount : 0;
    // Entries ranked anew may rank otherwise: every position is summed up again. (Those ranked
    // for the first time came since the last pass, and their positions are stale already.)
    if (from === 0) markAllNodeRunsStale(standing.nodeRuns);
    for (let index = from; index < live.length; index += 1) {
      const entry = live[index]!;
      if (entry.run !== null) entry.rank = rankBySlot[entry.budgetSlot]!;
    }
  } else {
    // Entries stay; their per-pass fields are set anew. Gaps of removed runs count as gone.
    // Until every entry is set, no later pass may keep them (a node overfilled throws below).
    standing.isProtectionKept = false;
    markAllNodeRunsStale(standing.nodeRuns);
    for (const entry of live) {
      const run = entry.run;
      entry.isGone = run === null;
      if (run === null) continue;
      entry.rank = rankBySlot[entry.budgetSlot]!;
      entry.isProtectedNow = entry.isAllocated && nowSec < entry.protectedUntilSec;
      if (!isTotalled) takeGpus(loading, entry, run);
    }
    // Protection as the totals left it, when they were asked; else as the next totals set it.
    standing.isProtectionKept = hasTotals;
  }
  // Kept as it is: nothing writes it from here on (standing runs bring no slots while loading).
  standing.rankBySlotSeen = rankBySlot;
  standing.rankOfSeen = rankOf;
  standing.rankedCount = live.length;
  // Totals counted every run's GPUs: those of runs ending on a down node come back.
  if (!isTotalled) return;
  for (const index of heldOn(loading.downAt, loading.heldByPosition)) {
    const entry = live[index]!;
    if (entry.run === null || !endIfDown(loading, entry, entry.run)) continue;
    for (const slice of entry.slices) {
      pool.free[slice.position] = pool.free[slice.position]! + slice.gpus;
    }
  }
}

/** Whether two ranks per budget slot agree on every slot of the shorter (slots only grow). */
function isSameRanks(seen: readonly number[], ranks: readonly number[]): boolean {
  if (seen.length > ranks.length) return false;
  for (let slot = 0; slot < seen.length; slot += 1) if (seen[slot] !== ranks[slot]) return false;
  return true;
}
