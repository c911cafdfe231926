// A worker thread of lib/simulations/threads/cluster-threads.ts: simulates one cluster of one scenario per
// task it is sent, reports the cluster's clock now and then, and posts back the cluster's
// outcome; or, when asked to pack a replay that is this one cluster, the runs its timeline needs
// (lib/simulations/timeline-runs.ts) at once, then its summary and gzip report
// (lib/simulations/run-scenario.ts). It keeps the scenarios it was sent (by replay) for its next
// tasks.
import { deserialize } from "node:v8";
import { parentPort } from "node:worker_threads";
import {
  mergeClusterOutcomes,
  SCHEDULERS,
  simulateClusters,
  type ClusterOutcome,
  type Scenario,
  type SchedulerName,
} from "../../sim";
import { packReport, type PackedReport } from "../run-scenario";
import { timelineRunsTransfer, toTimelineRuns, type TimelineRuns } from "../timeline-runs";

/**
 * One task: a cluster of a replay; the replay's scenario comes with its first task here, as
 * v8.serialize bytes (what postMessage would clone, serialised once for every thread).
 */
export type ThreadTask = {
  replay: number;
  scenarioBytes?: Uint8Array;
  scheduler: SchedulerName;
  cluster: string;
  /** The replay is this cluster alone: post its timeline's runs and packed report instead. */
  isPacked: boolean;
};
export type ThreadMessage =
  | { type: "progress"; nowSec: number }
  | { type: "done"; outcome: ClusterOutcome }
  | { type: "simulated"; runs: TimelineRuns }
  | { type: "packed"; report: PackedReport };

const PROGRESS_EVERY_MS = 250;

function main(): void {
  const port = parentPort;
  if (!port) throw new Error("sim-thread runs inside a worker thread");
  const scenarios = new Map<number, Scenario>();
  port.on("message", ({ replay, scenarioBytes, scheduler, cluster, isPacked }: ThreadTask) => {
    if (scenarioBytes) scenarios.set(replay, deserialize(scenarioBytes) as Scenario);
    const known = scenarios.get(replay);
    if (!known) throw new Error(`No scenario for replay ${replay} in this thread.`);
    if (!Object.hasOwn(SCHEDULERS, scheduler)) throw new Error(`No scheduler "${scheduler}".`);
    let lastSentMs = performance.now();
    const [outcome] = simulateClusters(known, [cluster], SCHEDULERS[scheduler], {
      onProgress(_cluster, nowSec) {
        const nowMs = performance.now();
        if (nowMs - lastSentMs < PROGRESS_EVERY_MS) return;
        lastSentMs = nowMs;
        port.postMessage({ type: "progress", nowSec } satisfies ThreadMessage);
      },
    });
    if (!isPacked) {
      port.postMessage({ type: "done", outcome: outcome! } satisfies ThreadMessage);
      return;
    }
    const result = mergeClusterOutcomes(known, [outcome!]);
    const runs = toTimelineRuns(result);
    port.postMessage(
      { type: "simulated", runs } satisfies ThreadMessage,
      timelineRunsTransfer(runs),
    );
    void packReport(known, result).then((report) => {
      port.postMessage({ type: "packed", report } satisfies ThreadMessage, [
        report.reportGz.buffer,
      ]);
    });
  });
}

main();
