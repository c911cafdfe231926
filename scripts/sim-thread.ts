// One cluster of one simulation, in a worker thread started by scripts/cluster-threads.ts:
// simulates it, reports its clock now and then, and posts back the cluster's outcome.
import { parentPort, workerData } from "node:worker_threads";
import {
  SCHEDULERS,
  simulateClusters,
  type ClusterOutcome,
  type Scenario,
  type SchedulerName,
} from "../lib/sim";

export type ThreadInput = { scenario: Scenario; scheduler: SchedulerName; cluster: string };
export type ThreadMessage =
  { type: "progress"; nowSec: number } | { type: "done"; outcome: ClusterOutcome };

const PROGRESS_EVERY_MS = 250;

function main(): void {
  const port = parentPort;
  if (!port) throw new Error("sim-thread runs inside a worker thread");
  const { scenario, scheduler, cluster } = workerData as ThreadInput;
  if (!Object.hasOwn(SCHEDULERS, scheduler)) throw new Error(`No scheduler "${scheduler}".`);
  const factory = SCHEDULERS[scheduler];
  let lastSentMs = 0;
  const [outcome] = simulateClusters(scenario, [cluster], factory, {
    onProgress(_cluster, nowSec) {
      const nowMs = performance.now();
      if (nowMs - lastSentMs < PROGRESS_EVERY_MS) return;
      lastSentMs = nowMs;
      port.postMessage({ type: "progress", nowSec } satisfies ThreadMessage);
    },
  });
  port.postMessage({ type: "done", outcome: outcome! } satisfies ThreadMessage);
}

main();
