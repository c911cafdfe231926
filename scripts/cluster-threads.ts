// Runs simulations in worker threads, one thread per cluster of each (scripts/sim-thread.ts),
// as many at once as the machine has cores, largest cluster first; merges each simulation's
// clusters back into its result here. Used by the simulation worker for browser simulations and
// what-ifs. The simulator is deterministic and clusters are independent, so the results are
// exactly those of runSimulation in one thread (lib/sim/simulate.test.ts, cluster-threads.test.ts).
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { mergeClusterOutcomes, type ClusterOutcome, type SimulationResult } from "../lib/sim";
import {
  createProgressTracker,
  planClusterTasks,
  type Replay,
  type ReplayProgress,
} from "../lib/simulations/cluster-tasks";
import type { ThreadInput, ThreadMessage } from "./sim-thread";

const THREAD_URL = new URL("./sim-thread.ts", import.meta.url).href;
// Node 20 does not apply --import loaders to a worker's entry file: register tsx first.
const BOOT = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(THREAD_URL)}); })`;

export type ClusterThreadOptions = {
  /** Threads at once; default the machine's available parallelism (at least 1). */
  concurrency?: number;
  /** Called whenever a thread reports its clock or finishes. */
  onProgress?: (progress: ReplayProgress) => void;
  /** Sees each thread as it starts (tests check that none is left running after a failure). */
  onSpawn?: (worker: Worker) => void;
};

/**
 * Runs each replay (scenario x scheduler) to its result, its clusters in worker threads. On the
 * first failure the threads still running are terminated, no more start, and the promise
 * rejects with that failure once they are gone.
 *
 * @example const [baseline, allocation] = await runReplays([{ scenario, scheduler: "baseline" }, { scenario, scheduler: "allocation" }])
 */
export async function runReplays(
  replays: readonly Replay[],
  options: ClusterThreadOptions = {},
): Promise<SimulationResult[]> {
  const tasks = planClusterTasks(replays);
  const tracker = createProgressTracker(replays, tasks);
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  const outcomes: ClusterOutcome[][] = replays.map(() => []);
  const running = new Set<Worker>();
  let next = 0;
  let failure: Error | null = null;

  function runTask(index: number): Promise<void> {
    const task = tasks[index]!;
    const { scenario, scheduler } = replays[task.replay]!;
    const input: ThreadInput = { scenario, scheduler, cluster: task.cluster };
    const worker = new Worker(BOOT, { eval: true, workerData: input });
    running.add(worker);
    options.onSpawn?.(worker);
    return new Promise<void>((resolve, reject) => {
      let outcome: ClusterOutcome | null = null;
      worker.on("message", (message: ThreadMessage) => {
        if (message.type === "progress") tracker.update(index, message.nowSec);
        else {
          outcome = message.outcome;
          tracker.finish(index);
        }
        options.onProgress?.(tracker.snapshot());
      });
      worker.on("error", reject);
      worker.on("exit", (code) => {
        running.delete(worker);
        if (outcome) {
          outcomes[task.replay]!.push(outcome);
          resolve();
        } else {
          reject(new Error(`The ${scheduler} thread of ${task.cluster} exited with code ${code}.`));
        }
      });
    });
  }

  async function lane(): Promise<void> {
    while (failure === null && next < tasks.length) {
      const index = next++;
      try {
        await runTask(index);
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
        await Promise.all([...running].map((worker) => worker.terminate()));
      }
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, lane));
  if (failure) throw failure;
  return replays.map((replay, i) => mergeClusterOutcomes(replay.scenario, outcomes[i]!));
}
