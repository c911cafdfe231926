import { explainReason, type Reason } from "../engine";
import { buildTimeline, type Scenario, type SimulationResult } from "../sim";
import { END_REASONS, type TimelineData, type TimelineEndReason } from "./timeline-format";

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

/** A plain sentence for a preemption's reason, whichever scheduler gave it. */
export function describeRunReason(reason: unknown): string | null {
  if (typeof reason !== "object" || reason === null || !("rule" in reason)) return null;
  const rule = (reason as { rule: unknown }).rule;
  if (rule === "baseline-priority") {
    const r = reason as unknown as { byJobId: string; byPriority: string; victimPriority: string };
    return `Preempted by job ${r.byJobId} (${r.byPriority} priority) over this ${r.victimPriority}-priority run.`;
  }
  try {
    return explainReason(reason as Reason);
  } catch {
    return `Ended by rule ${String(rule)}.`;
  }
}

/**
 * Encodes a simulation's per-GPU timeline (lib/sim buildTimeline) for the browser. Zero-length
 * runs are left out: they hold no GPU for any time.
 *
 * @example encodeTimeline(scenario, result).segments.length / SEGMENT_STRIDE // number of runs
 */
export function encodeTimeline(scenario: Scenario, result: SimulationResult): TimelineData {
  const timeline = buildTimeline(result);
  const reasonByRun = new Map<string, unknown>();
  for (const record of result.jobs) {
    for (const run of record.runs)
      if (run.reason !== undefined) reasonByRun.set(run.runId, run.reason);
  }
  const clusterIndex = new Map(scenario.clusters.map((cluster, i) => [cluster.name, i]));
  const budgets = interner();
  const jobs = interner();
  const reasons = interner();
  const segments: number[] = [];
  for (const segment of timeline.segments) {
    if (segment.endSec <= segment.startSec) continue;
    let mask = 0;
    for (const gpu of segment.gpus) mask += 2 ** gpu;
    const endCode = Math.max(0, END_REASONS.indexOf(segment.endReason as TimelineEndReason));
    const text = describeRunReason(reasonByRun.get(segment.runId));
    segments.push(
      clusterIndex.get(segment.cluster) ?? 0,
      segment.node,
      mask,
      segment.startSec,
      segment.endSec,
      jobs.indexOf(segment.jobId),
      budgets.indexOf(segment.budget),
      (segment.allocated ? 1 : 0) | (endCode << 1),
      text === null ? -1 : reasons.indexOf(text),
    );
  }
  return {
    scheduler: timeline.scheduler,
    horizonSec: timeline.horizonSec,
    clusters: scenario.clusters.map(({ name, nodes, gpusPerNode }) => ({
      name,
      nodes,
      gpusPerNode,
    })),
    budgets: budgets.list,
    jobs: jobs.list,
    reasons: reasons.list,
    segments,
  };
}
