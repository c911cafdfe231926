import { explainReason, type Reason } from "../engine";
import { formatSimMoment } from "../format";
import type { Scenario, SimulationResult } from "../sim";
import type { TimelineComparison, TimelineData } from "./timeline-format";
import { toTimelineRuns, type TimelineRuns } from "./timeline-runs";

function interner(): { list: string[]; indexOf: (text: string) => number } {
  const list: string[] = [];
  const index = new Map<string, number>();
  return {
    list,
    indexOf(text) {
      let at = index.get(text);
      if (at === undefined) {
        at = list.length;
        list.push(text);
        index.set(text, at);
      }
      return at;
    },
  };
}

/** A plain sentence for a preemption's reason, whichever scheduler gave it (times as day N, HH:MM). */
export function describeRunReason(reason: unknown): string | null {
  if (typeof reason !== "object" || reason === null || !("rule" in reason)) return null;
  const rule = (reason as { rule: unknown }).rule;
  if (rule === "baseline-priority") {
    const r = reason as unknown as { byJobId: string; byPriority: string; victimPriority: string };
    return `Preempted by job ${r.byJobId} (${r.byPriority} priority) over this ${r.victimPriority}-priority run.`;
  }
  try {
    return explainReason(reason as Reason, { formatTime: formatSimMoment });
  } catch {
    return `Ended by rule ${String(rule)}.`;
  }
}

/**
 * The comparison that decided a preemption for rank, as rows for the timeline's hover: where
 * the two budgets' paths part (when above the leaves), then the leaves. Null for any other
 * reason.
 *
 * @example describeRunComparison(reason)?.[0]?.higher // "vision"
 */
export function describeRunComparison(reason: unknown): TimelineComparison | null {
  if (typeof reason !== "object" || reason === null) return null;
  const r = reason as Partial<Reason>;
  if (r.rule !== "preempt-for-rank" || !("preemptor" in r) || !r.preemptor || !r.victim) {
    return null;
  }
  const leaves = {
    higher: r.preemptor.budget.path,
    higherRatio: r.preemptor.budget.usageRatio,
    lower: r.victim.path,
    lowerRatio: r.victim.usageRatio,
  };
  const parting = r.parting;
  if (!parting || (parting.higher.path === leaves.higher && parting.lower.path === leaves.lower)) {
    return [leaves];
  }
  return [
    {
      higher: parting.higher.path,
      higherRatio: parting.higher.usageRatio,
      lower: parting.lower.path,
      lowerRatio: parting.lower.usageRatio,
    },
    leaves,
  ];
}

/** The distinct comparisons of `reasons`, and the index of each reason's (-1 for none). */
export function listComparisons(
  reasons: readonly string[],
  comparisonOfText: ReadonlyMap<string, TimelineComparison | null>,
): { comparisons: TimelineComparison[]; comparisonOfReason: number[] } {
  const comparisons: TimelineComparison[] = [];
  const indexOfKey = new Map<string, number>();
  const comparisonOfReason = reasons.map((text) => {
    const comparison = comparisonOfText.get(text);
    if (!comparison) return -1;
    const key = JSON.stringify(comparison);
    let at = indexOfKey.get(key);
    if (at === undefined) {
      at = comparisons.push(comparison) - 1;
      indexOfKey.set(key, at);
    }
    return at;
  });
  return { comparisons, comparisonOfReason };
}

/**
 * Encodes a simulation's per-GPU timeline for the browser: lib/sim buildTimeline's segments,
 * encoded one after the other. Zero-length runs are left out: they hold no GPU for any time.
 *
 * @example encodeTimeline(scenario, result).segments.length / SEGMENT_STRIDE // number of runs
 */
export function encodeTimeline(scenario: Scenario, result: SimulationResult): TimelineData {
  return encodeTimelineRuns(scenario, toTimelineRuns(result));
}

/**
 * {@link encodeTimeline} from a result's {@link TimelineRuns}, as a cluster thread posts them,
 * without a segment object per run: each node's GPU indexes are assigned as lib/sim
 * buildTimeline does (edges in time order, ends before starts at the same moment, then run
 * order; lowest free index first; segments then by start and first GPU), and strings are listed
 * in the order the segments first use them. timeline-data.test.ts checks it against
 * buildTimeline.
 */
export function encodeTimelineRuns(scenario: Scenario, runs: TimelineRuns): TimelineData {
  const { startSec, endSec, sliceEnd, sliceNode, sliceGpus } = runs;
  const runOfSlice = new Int32Array(sliceNode.length);
  for (let r = 0, s = 0; r < sliceEnd.length; r++) {
    for (; s < sliceEnd[r]!; s++) runOfSlice[s] = r;
  }
  // Slices of each node of each cluster, in run order, clusters by name as buildTimeline has them.
  const slicesByCluster = runs.clusters.map((): number[][] => []);
  for (let s = 0; s < sliceNode.length; s++) {
    (slicesByCluster[runs.cluster[runOfSlice[s]!]!]![sliceNode[s]!] ??= []).push(s);
  }
  const clusterOrder = runs.clusters
    .map((name, i) => ({ name, i }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const clusterIndex = new Map(scenario.clusters.map((cluster, i) => [cluster.name, i]));
  const jobs = listedIndexes(runs.jobIds);
  const budgets = listedIndexes(runs.budgets);
  const reasons = interner();
  const reasonOfRun = new Map<number, string | null>();
  const comparisonOfText = new Map<string, TimelineComparison | null>();
  runs.reasonRuns.forEach((r, i) => {
    const text = describeRunReason(runs.reasons[i]);
    reasonOfRun.set(r, text);
    if (text !== null && !comparisonOfText.has(text)) {
      comparisonOfText.set(text, describeRunComparison(runs.reasons[i]));
    }
  });
  const segments: number[] = [];
  for (const { i: cluster } of clusterOrder) {
    const clusterAt = clusterIndex.get(runs.clusters[cluster]!) ?? 0;
    for (const [node, slices] of slicesByCluster[cluster]!.entries()) {
      if (!slices) continue;
      const held = assignGpus(
        slices.map((s) => runOfSlice[s]!),
        slices.map((s) => sliceGpus[s]!),
        startSec,
        endSec,
      );
      for (const { hold, mask } of held) {
        const r = runOfSlice[slices[hold]!]!;
        if (endSec[r]! <= startSec[r]!) continue;
        const text = reasonOfRun.get(r) ?? null;
        segments.push(
          clusterAt,
          node,
          mask,
          startSec[r]!,
          endSec[r]!,
          jobs.indexOf(runs.job[r]!),
          budgets.indexOf(runs.budget[r]!),
          runs.flags[r]!,
          text === null ? -1 : reasons.indexOf(text),
        );
      }
    }
  }
  return {
    scheduler: runs.scheduler,
    horizonSec: runs.horizonSec,
    clusters: scenario.clusters.map(({ name, nodes, gpusPerNode }) => ({
      name,
      nodes,
      gpusPerNode,
    })),
    budgets: budgets.list,
    jobs: jobs.list,
    reasons: reasons.list,
    ...listComparisons(reasons.list, comparisonOfText),
    segments,
  };
}

/** Entries of `table` listed in the order they are first asked for, by their index in it. */
function listedIndexes(table: readonly string[]): {
  list: string[];
  indexOf: (at: number) => number;
} {
  const listed = new Int32Array(table.length).fill(-1);
  const list: string[] = [];
  return {
    list,
    indexOf(at) {
      if (listed[at]! < 0) listed[at] = list.push(table[at]!) - 1;
      return listed[at]!;
    },
  };
}

/**
 * One node's holds (run and GPU count each, in run order) with their GPU masks, by start and
 * first GPU: lib/sim buildTimeline's assignment. Edges are numbered 2 x hold + (1 for a start),
 * sorted by time, ends before starts, then by hold; a zero-length hold takes the lowest free
 * GPUs without keeping them.
 */
function assignGpus(
  runOf: readonly number[],
  counts: readonly number[],
  startSec: Float64Array,
  endSec: Float64Array,
): { hold: number; mask: number }[] {
  const atSec = new Float64Array(runOf.length * 2);
  runOf.forEach((r, i) => {
    atSec[2 * i] = endSec[r]!;
    atSec[2 * i + 1] = startSec[r]!;
  });
  const edges = new Int32Array(runOf.length * 2).map((_, i) => i);
  edges.sort((a, b) => atSec[a]! - atSec[b]! || (a & 1) - (b & 1) || a - b);
  const taken: boolean[] = [];
  const gpusOf: number[][] = runOf.map(() => []);
  const started: { hold: number; mask: number; first: number }[] = [];
  for (const edge of edges) {
    const hold = edge >> 1;
    const r = runOf[hold]!;
    const isInstant = endSec[r] === startSec[r];
    const gpus = gpusOf[hold]!;
    if ((edge & 1) === 0) {
      if (!isInstant) for (const gpu of gpus) taken[gpu] = false;
      continue;
    }
    let mask = 0;
    for (let gpu = 0; gpus.length < counts[hold]!; gpu++) {
      if (!taken[gpu]) {
        taken[gpu] = !isInstant;
        gpus.push(gpu);
        mask += 2 ** gpu;
      }
    }
    started.push({ hold, mask, first: gpus[0] ?? 0 });
  }
  return started.sort(
    (a, b) => startSec[runOf[a.hold]!]! - startSec[runOf[b.hold]!]! || a.first - b.first,
  );
}
