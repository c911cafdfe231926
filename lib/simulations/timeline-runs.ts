// A result's runs as much as the timeline reads of them (lib/simulations/timeline-data.ts), in
// typed arrays and string tables: a cluster thread posts them to the worker, which encodes the
// timeline from them while the thread builds the report. Posting the result itself would cost
// seconds for Philly's 116k runs; these cost a few milliseconds and the preemption reasons.
import type { SimulationResult } from "../sim";
import { END_REASONS, type TimelineEndReason } from "./timeline-format";

/** Runs in result order (jobs, then each job's runs); slices of run r are [sliceEnd[r-1], sliceEnd[r]). */
export type TimelineRuns = {
  scheduler: string;
  horizonSec: number;
  /** String tables the runs index into. */
  jobIds: string[];
  budgets: string[];
  clusters: string[];
  /** Per run. */
  job: Int32Array<ArrayBuffer>;
  budget: Int32Array<ArrayBuffer>;
  cluster: Int32Array<ArrayBuffer>;
  startSec: Float64Array<ArrayBuffer>;
  endSec: Float64Array<ArrayBuffer>;
  /** Bit 0: allocated; bits 1-2: index in END_REASONS. */
  flags: Uint8Array<ArrayBuffer>;
  sliceEnd: Int32Array<ArrayBuffer>;
  /** Per slice. */
  sliceNode: Int32Array<ArrayBuffer>;
  sliceGpus: Int32Array<ArrayBuffer>;
  /** The runs that have a reason, and their reasons. */
  reasonRuns: Int32Array<ArrayBuffer>;
  reasons: unknown[];
};

function table() {
  const list: string[] = [];
  const index = new Map<string, number>();
  return {
    list,
    indexOf(text: string): number {
      let at = index.get(text);
      if (at === undefined) index.set(text, (at = list.push(text) - 1));
      return at;
    },
  };
}

/** The timeline's part of `result`, ready to post (see {@link timelineRunsTransfer}). */
export function toTimelineRuns(result: SimulationResult): TimelineRuns {
  const runs = result.jobs.flatMap((record) => record.runs);
  const sliceCount = runs.reduce((sum, run) => sum + run.placement.length, 0);
  // A job's runs follow each other: a new job id is a new entry, no map of 82k ids needed.
  const jobIds: string[] = [];
  const budgets = table();
  const clusters = table();
  const out: TimelineRuns = {
    scheduler: result.scheduler,
    horizonSec: result.horizonSec,
    jobIds,
    budgets: budgets.list,
    clusters: clusters.list,
    job: new Int32Array(runs.length),
    budget: new Int32Array(runs.length),
    cluster: new Int32Array(runs.length),
    startSec: new Float64Array(runs.length),
    endSec: new Float64Array(runs.length),
    flags: new Uint8Array(runs.length),
    sliceEnd: new Int32Array(runs.length),
    sliceNode: new Int32Array(sliceCount),
    sliceGpus: new Int32Array(sliceCount),
    reasonRuns: new Int32Array(runs.filter((run) => run.reason !== undefined).length),
    reasons: [],
  };
  let slice = 0;
  runs.forEach((run, r) => {
    if (jobIds.at(-1) !== run.jobId) jobIds.push(run.jobId);
    out.job[r] = jobIds.length - 1;
    out.budget[r] = budgets.indexOf(run.budgetId);
    out.cluster[r] = clusters.indexOf(run.cluster);
    out.startSec[r] = run.startSec;
    out.endSec[r] = run.endSec;
    const endCode = END_REASONS.indexOf(run.endReason as TimelineEndReason);
    if (endCode < 0) throw new Error(`Unknown end reason "${run.endReason}".`);
    out.flags[r] = (run.isAllocated ? 1 : 0) | (endCode << 1);
    for (const { node, gpus } of run.placement) {
      out.sliceNode[slice] = node;
      out.sliceGpus[slice] = gpus;
      slice += 1;
    }
    out.sliceEnd[r] = slice;
    if (run.reason !== undefined) {
      out.reasonRuns[out.reasons.length] = r;
      out.reasons.push(run.reason);
    }
  });
  return out;
}

/** The buffers of `runs` to transfer with postMessage. */
export function timelineRunsTransfer(runs: TimelineRuns): ArrayBuffer[] {
  return [
    runs.job,
    runs.budget,
    runs.cluster,
    runs.startSec,
    runs.endSec,
    runs.flags,
    runs.sliceEnd,
    runs.sliceNode,
    runs.sliceGpus,
    runs.reasonRuns,
  ].map((array) => array.buffer);
}
