// Runs simulations in worker threads (sim-thread.ts), one cluster of one simulation per
// task, as many threads as the machine has cores, largest cluster first; merges each
// simulation's clusters back into its result here. Used by the simulation worker for browser
// simulations and what-ifs, and by `allot simulate` (lib/cli/simulate-schedulers.ts). The
// simulator is deterministic and clusters are independent, so the results are exactly
// runSimulation's in one thread (lib/sim/simulate.test.ts and cluster-threads.test.ts check
// it). A thread takes task after task: starting one costs about 0.2 s from the worker's bundle
// and 0.9 s through tsx, as much as a small cluster's whole simulation.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serialize } from "node:v8";
import { Worker } from "node:worker_threads";
import { SIMULATION_WORKER_LIMITS } from "../../../bin/node-flags.mjs";
import {
  mergeClusterOutcomes,
  type ClusterOutcome,
  type Scenario,
  type SimulationResult,
} from "../../sim";
import {
  packOutcome,
  packTimelineRuns,
  type PackedOutcome,
  type PackedReport,
} from "../run-scenario";
import type { TimelineRuns } from "../timeline-runs";
import { deferred } from "./deferred";
import {
  createProgressTracker,
  planClusterTasks,
  type Replay,
  type ReplayProgress,
} from "../cluster-tasks";
import type { ThreadMessage, ThreadTask } from "./sim-thread";

const THREAD_URL = new URL("./sim-thread.ts", import.meta.url).href;
// In the worker's bundle (scripts/build-worker.ts), the thread's bundle; from source, Node 20
// does not apply --import loaders to a worker's entry file: register tsx first.
const THREAD_BUNDLE = process.env.ALLOT_SIM_THREAD_BUNDLE;
const BOOT = THREAD_BUNDLE
  ? `import(${JSON.stringify(pathToFileURL(THREAD_BUNDLE).href)})`
  : `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(THREAD_URL)}); })`;

/** A cluster thread, with the young generation simulations are given (ADR 021). */
function startThread(): Worker {
  return new Worker(BOOT, { eval: true, resourceLimits: SIMULATION_WORKER_LIMITS });
}

/**
 * Whether threads can start from here: the thread's bundle exists, or its source beside this
 * file. A caller bundled on its own (say the command line, bundled to time it) has neither.
 */
export function hasClusterThreadEntry(): boolean {
  return existsSync(THREAD_BUNDLE ?? fileURLToPath(THREAD_URL));
}

/**
 * Threads started ahead of their tasks ({@link startClusterThreads}): they boot (0.2-0.4 s)
 * while the caller still builds its scenario.
 */
export type ClusterThreads = {
  /** Every thread started, used or not. */
  readonly workers: readonly Worker[];
  /** A started thread still alive, or null when none is left. */
  take(): Worker | null;
  /** Terminates the threads not taken. */
  close(): Promise<void>;
};

/**
 * Starts `count` cluster threads (default the machine's available parallelism) for a later
 * {@link runReplays} or {@link runAndPackReplays}, which closes those it leaves; a caller that
 * ends up not running them closes them itself.
 */
export function startClusterThreads(count = availableParallelism()): ClusterThreads {
  const workers = Array.from({ length: Math.max(1, count) }, startThread);
  const waiting = workers.map((worker) => {
    const entry = { worker, isAlive: true };
    // A thread that fails before its first task is not taken: a new one will show its error.
    worker.on("error", () => undefined);
    worker.once("exit", () => (entry.isAlive = false));
    return entry;
  });
  return {
    workers,
    take() {
      for (let entry = waiting.shift(); entry; entry = waiting.shift()) {
        if (entry.isAlive) return entry.worker;
      }
      return null;
    },
    close: async () => {
      await Promise.all(waiting.splice(0).map(({ worker }) => worker.terminate()));
    },
  };
}

export type ClusterThreadOptions = {
  /** Threads at once; default the machine's available parallelism (at least 1). */
  concurrency?: number;
  /** Threads started beforehand, taken before new ones are spawned; closed by the end. */
  threads?: ClusterThreads;
  /** Called whenever a thread reports a cluster's clock or finishes one. */
  onProgress?: (progress: ReplayProgress) => void;
  /** Sees each thread as it is put to work (tests check none is left running after a failure). */
  onSpawn?: (worker: Worker) => void;
};

/**
 * Runs each replay (scenario x scheduler) to its result, its clusters in worker threads. On the
 * first failure every thread is terminated, no more tasks start, and the promise rejects with
 * that failure once the threads are gone.
 *
 * @example const [baseline, allocation] = await runReplays([{ scenario, scheduler: "baseline" }, { scenario, scheduler: "allocation" }])
 */
export async function runReplays(
  replays: readonly Replay[],
  options: ClusterThreadOptions = {},
): Promise<SimulationResult[]> {
  const outcomes = await runTasks(replays, options);
  return replays.map((replay, i) => mergeClusterOutcomes(replay.scenario, outcomes[i]!));
}

/**
 * {@link runReplays}, each replay packed for storage (lib/simulations/run-scenario.ts) as soon
 * as its clusters are done. A replay of one cluster is packed by its thread and this one at
 * once: the thread posts the runs its timeline needs in typed arrays, then builds the report;
 * this thread builds the timeline meanwhile. The raw result never crosses threads. A replay of
 * several clusters is merged and packed here while the other replays still run. `onTimeline` gets
 * each replay's timeline JSON as soon as it is built. The packed outcomes are exactly those of
 * packOutcome on runReplays' results.
 *
 * @example const [baseline, allocation] = await runAndPackReplays(replays) // { summary, reportGz, timelineJson }
 */
export async function runAndPackReplays(
  replays: readonly Replay[],
  options: ClusterThreadOptions & {
    onTimeline?: (replay: number, timelineJson: Uint8Array) => void;
  } = {},
): Promise<PackedOutcome[]> {
  const parts = replays.map(() => ({
    timeline: deferred<Uint8Array<ArrayBuffer>>(),
    report: deferred<PackedReport>(),
  }));
  const packed = parts.map(async ({ timeline, report }, replay) => {
    const timelineJson = await timeline.promise;
    options.onTimeline?.(replay, timelineJson);
    return { ...(await report.promise), timelineJson };
  });
  for (const promise of packed) promise.catch(() => undefined); // awaited after the threads
  const fail = (replay: number, error: unknown) => {
    parts[replay]!.timeline.reject(error);
    parts[replay]!.report.reject(error);
  };
  await runTasks(replays, options, {
    onReplayDone(replay, outcomes) {
      const { scenario } = replays[replay]!;
      packOutcome(scenario, mergeClusterOutcomes(scenario, outcomes)).then(
        ({ timelineJson, ...report }) => {
          parts[replay]!.timeline.resolve(timelineJson);
          parts[replay]!.report.resolve(report);
        },
        (error: unknown) => fail(replay, error),
      );
    },
    onTimelineRuns(replay, runs) {
      // After this message's handlers, so that progress is written first.
      setImmediate(() => {
        try {
          const timelineJson = packTimelineRuns(replays[replay]!.scenario, runs);
          parts[replay]!.timeline.resolve(timelineJson);
        } catch (error) {
          fail(replay, error);
        }
      });
    },
    onReport: (replay, report) => parts[replay]!.report.resolve(report),
  });
  return Promise.all(packed);
}

/**
 * How runAndPackReplays packs: a replay's outcomes when all are here; or, from a thread that
 * packs its one-cluster replay, the runs of its timeline, then its report.
 */
type Packing = {
  onReplayDone: (replay: number, outcomes: ClusterOutcome[]) => void;
  onTimelineRuns: (replay: number, runs: TimelineRuns) => void;
  onReport: (replay: number, report: PackedReport) => void;
};

async function runTasks(
  replays: readonly Replay[],
  options: ClusterThreadOptions,
  packing?: Packing,
): Promise<ClusterOutcome[][]> {
  const tasks = planClusterTasks(replays);
  const tracker = createProgressTracker(replays, tasks);
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  const outcomes: ClusterOutcome[][] = replays.map(() => []);
  const clusterCounts = replays.map(({ scenario }) => scenario.clusters.length);
  const threads = new Set<Worker>();
  // Each scenario is serialised once and its bytes copied to each thread that needs it: a
  // structured clone per thread costs this thread 0.25 s for Philly's 82k jobs, v8.serialize
  // 0.1 s; the threads deserialise them in parallel.
  const serialised = new Map<Scenario, Uint8Array>();
  for (const { scenario, scenarioBytes } of replays) {
    if (scenarioBytes) serialised.set(scenario, scenarioBytes);
  }
  const bytesOf = (scenario: Scenario): Uint8Array => {
    let bytes = serialised.get(scenario);
    if (!bytes) serialised.set(scenario, (bytes = serialize(scenario)));
    return bytes;
  };
  let next = 0;
  let failure: Error | null = null;

  function runTask(worker: Worker, index: number, hasScenario: boolean): Promise<void> {
    const { replay, cluster } = tasks[index]!;
    const { scenario, scheduler } = replays[replay]!;
    const isPacked = packing !== undefined && clusterCounts[replay] === 1;
    return new Promise((resolve, reject) => {
      const stop = () => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      const onMessage = (message: ThreadMessage) => {
        if (message.type === "progress") tracker.update(index, message.nowSec);
        else if (message.type !== "packed") tracker.finish(index);
        if (message.type !== "packed") options.onProgress?.(tracker.snapshot());
        if (message.type === "done") {
          stop();
          const done = outcomes[replay]!;
          done.push(message.outcome);
          if (done.length === clusterCounts[replay]) packing?.onReplayDone(replay, done);
          resolve();
        } else if (message.type === "simulated") {
          packing?.onTimelineRuns(replay, message.runs);
        } else if (message.type === "packed") {
          stop();
          packing?.onReport(replay, message.report);
          resolve();
        }
      };
      const onError = (error: Error) => {
        stop();
        reject(error);
      };
      const onExit = (code: number) => {
        stop();
        reject(new Error(`The ${scheduler} thread of ${cluster} exited with code ${code}.`));
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      const task: ThreadTask = {
        replay,
        scheduler,
        cluster,
        isPacked,
        ...(hasScenario ? {} : { scenarioBytes: bytesOf(scenario) }),
      };
      worker.postMessage(task);
    });
  }

  async function lane(): Promise<void> {
    let worker: Worker | null = null;
    const sent = new Set<number>();
    while (failure === null && next < tasks.length) {
      const index = next++;
      const { replay } = tasks[index]!;
      if (!worker) {
        worker = options.threads?.take() ?? startThread();
        threads.add(worker);
        options.onSpawn?.(worker);
      }
      try {
        await runTask(worker, index, sent.has(replay));
        sent.add(replay);
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
        await Promise.all([...threads].map((thread) => thread.terminate()));
      }
    }
    await worker?.terminate();
  }

  clusterCounts.forEach((count, replay) => {
    if (count === 0) packing?.onReplayDone(replay, []);
  });
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, lane));
  } finally {
    await options.threads?.close();
  }
  if (failure) throw failure;
  return outcomes;
}
