// How `allot simulate` runs its schedulers: in this thread, one cluster after another, or with
// every (scheduler, cluster) task on worker threads (lib/sim-threads), when that pays. Clusters
// are independent and the simulator is deterministic, so both give exactly runSimulation's
// results, and the same report and timeline bytes.
import { availableParallelism } from "node:os";
import {
  runSimulation,
  SCHEDULERS,
  type Scenario,
  type SchedulerName,
  type SimulationResult,
} from "../sim";
import { InputError, type CliIo } from "./io";
import { CLEAR_LINE, progressReporter, replayProgressReporter } from "./scenario-file";

/**
 * Fewest jobs to simulate (the scenario's jobs x schedulers) for `allot simulate` to use threads
 * when `--threads` is not given. A thread starts in about 0.9 s through tsx (how the bin runs)
 * and posts its clusters' results back; the simulator does a few thousand jobs a second, so
 * below this the start-up would eat most of the gain. The 2-day lab (2,184 jobs) stays in this
 * thread; the 30-day lab (31,728) and a year go to threads.
 */
export const THREADS_MIN_JOBS = 20_000;

/** The most `--threads` accepts. */
export const MAX_THREADS = 256;

/** What a simulate run has to do: its scenario's jobs and clusters, and how many schedulers. */
export type SimulateWork = { jobs: number; clusters: number; schedulers: number };

/**
 * Threads for a run: `requested` (`--threads`) when given, else the machine's cores once there
 * are {@link THREADS_MIN_JOBS} jobs to simulate; never more than its tasks (one per scheduler and
 * cluster). 1 means in this thread, without workers.
 *
 * @example chooseThreadCount({ jobs: 31_728, clusters: 3, schedulers: 2 }, undefined, 2) // 2
 */
export function chooseThreadCount(
  work: SimulateWork,
  requested: number | undefined,
  cores: number = availableParallelism(),
): number {
  const tasks = work.clusters * work.schedulers;
  const wanted = requested ?? (work.jobs * work.schedulers >= THREADS_MIN_JOBS ? cores : 1);
  return Math.max(1, Math.min(wanted, tasks));
}

/**
 * Simulates `scenario` under each scheduler, in order: with `threads` 1 here, one scheduler
 * after another (`onResult` gets each as it is done, so that its report can be built before the
 * next starts); else on `threads` worker threads, then `onResult` for each. Progress goes to
 * stderr on a terminal. A failed thread stops the others and rejects with an
 * {@link InputError} naming its error.
 *
 * @example await simulateSchedulers(io, scenario, ["baseline", "allocation"], 2, (result) => reports.push(buildReport(scenario, result)))
 */
export async function simulateSchedulers(
  io: CliIo,
  scenario: Scenario,
  schedulers: readonly SchedulerName[],
  threads: number,
  onResult: (result: SimulationResult) => void,
): Promise<void> {
  if (threads <= 1) {
    for (const name of schedulers) {
      const onProgress = progressReporter(io, name);
      const result = runSimulation(scenario, SCHEDULERS[name], onProgress ? { onProgress } : {});
      if (onProgress) io.stderr(CLEAR_LINE);
      onResult(result);
    }
    return;
  }
  // Loaded only here: a run in this thread (and every other command) starts as before.
  const { runReplays } = await import("../sim-threads/cluster-threads");
  const onProgress = replayProgressReporter(io, schedulers);
  let results: SimulationResult[];
  try {
    results = await runReplays(
      schedulers.map((scheduler) => ({ scenario, scheduler })),
      { concurrency: threads, ...(onProgress ? { onProgress } : {}) },
    );
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InputError(`simulate: a simulation thread failed: ${why}`);
  } finally {
    if (onProgress) io.stderr(CLEAR_LINE);
  }
  for (const result of results) onResult(result);
}
