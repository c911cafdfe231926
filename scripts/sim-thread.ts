// One scheduler of one simulation, in a worker thread of scripts/sim-worker.ts: runs it,
// reports progress, and sends back the summary with the report and timeline gzipped.
import { parentPort, workerData } from "node:worker_threads";
import type { Scenario, SchedulerName } from "../lib/sim";
import { gzipText } from "../lib/simulations/gzip";
import { runScheduler } from "../lib/simulations/run-scenario";

export type ThreadInput = {
  scenario: Scenario;
  scheduler: SchedulerName;
  /** What-ifs keep no report or timeline but need each job's wait (seconds, null: never started). */
  isForWhatIf?: boolean;
};
export type ThreadMessage =
  | { type: "progress"; fraction: number; cluster: string; nowSec: number }
  | {
      type: "done";
      summary: unknown;
      reportGz: Uint8Array<ArrayBuffer> | null;
      timelineGz: Uint8Array<ArrayBuffer> | null;
      /** Per scenario job, in order: first start minus submit (what-ifs only). */
      waits: (number | null)[] | null;
    };

const PROGRESS_EVERY_MS = 250;

function main(): void {
  const port = parentPort;
  if (!port) throw new Error("sim-thread runs inside a worker thread");
  const { scenario, scheduler, isForWhatIf = false } = workerData as ThreadInput;
  let lastSentMs = 0;
  const outcome = runScheduler(
    scenario,
    scheduler,
    { isTimelineWanted: !isForWhatIf },
    (fraction, clock) => {
      const nowMs = performance.now();
      if (nowMs - lastSentMs < PROGRESS_EVERY_MS) return;
      lastSentMs = nowMs;
      const message: ThreadMessage = { type: "progress", fraction, ...clock };
      port.postMessage(message);
    },
  );
  // A what-if keeps its summary only: the full report (every run with its reason) is tens of
  // megabytes for a month of the lab, and nothing reads it.
  const reportGz = isForWhatIf ? null : gzipText(JSON.stringify(outcome.report));
  const timelineGz = outcome.timeline ? gzipText(JSON.stringify(outcome.timeline)) : null;
  const waits = isForWhatIf ? outcome.report.jobs.map((job) => job.waitSec) : null;
  const message: ThreadMessage = {
    type: "done",
    summary: outcome.summary,
    reportGz,
    timelineGz,
    waits,
  };
  port.postMessage(message);
}

main();
