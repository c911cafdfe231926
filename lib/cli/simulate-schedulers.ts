// How `allot simulate` runs its schedulers: in this thread, one cluster after another, or with
// every (scheduler, cluster) task on worker threads (lib/simulations/threads), when that pays. Clusters
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
 * What simulating a job costs under each scheduler, against allocation: the baseline's greedy
 * pass was 4-9x quicker when this was set (docs/archive/speed-history.md, on 2026-12-01: the 30-day lab
 * 1.6 s against 6.4-7.9 s, Philly 1.2 s against 6.9-8.4 s, the year 21.8 s against 204 s), and
 * is 3.4-5x since allocation got faster (docs/simulations.md, "Speed"). Either way the lab stays
 * under {@link THREADS_MIN_JOBS} and Philly and the year over it.
 */
export const JOB_COST: Record<SchedulerName, number> = {
  allocation: 1,
  baseline: 1 / 8,
  // About six times allocation's (lab-whole-node, 30 days: 14 s against 2.2 s).
  reference: 6,
};

/**
 * Fewest jobs to simulate under allocation (a baseline job counting {@link JOB_COST}) for
 * `allot simulate` to use threads when `--threads` is not given. Threads cost CPU: each compiles
 * the engine again and keeps its own heap, and results cross back. Measured through tsx
 * (docs/simulations.md, "allot simulate on threads"), the 30-day lab (31,728 jobs) gained
 * nothing from 2 threads and the year did; so the lab stays in this thread.
 */
export const THREADS_MIN_JOBS = 50_000;

/**
 * Cores a simulation thread is given when `--threads` is not: its own, and one for V8, which
 * collects garbage and compiles beside it (one allocation replay keeps 1.1-1.4 cores busy).
 * Bundled, on 2 cores, 2 threads lost to one every time on 2026-12-01 (docs/simulations.md,
 * "allot simulate on threads"): the year's first 30 days with both schedulers 16.4-16.7 s
 * against 14.2-14.5 s, the whole year 210 s against 190 s (7.5 GB of peak RSS against 2.8), on
 * 1.6-1.9x the CPU.
 */
export const CORES_PER_THREAD = 2;

/** The most `--threads` accepts. */
export const MAX_THREADS = 256;

/** What a simulate run has to do: its scenario's jobs and clusters, under these schedulers. */
export type SimulateWork = {
  jobs: number;
  clusters: number;
  schedulers: readonly SchedulerName[];
};

/**
 * Threads for a run: `requested` (`--threads`) when given, else one per
 * {@link CORES_PER_THREAD} of the machine's cores once the run is worth
 * {@link THREADS_MIN_JOBS} allocation jobs; never more than its tasks (one per scheduler and
 * cluster). 1 means in this thread, without workers.
 *
 * @example chooseThreadCount({ jobs: 79_762, clusters: 3, schedulers: ["allocation"] }, undefined, 8) // 3
 */
export function chooseThreadCount(
  work: SimulateWork,
  requested: number | undefined,
  cores: number = availableParallelism(),
): number {
  const tasks = work.clusters * work.schedulers.length;
  const jobs = work.schedulers.reduce((sum, name) => sum + work.jobs * JOB_COST[name], 0);
  const wanted = requested ?? (jobs >= THREADS_MIN_JOBS ? Math.floor(cores / CORES_PER_THREAD) : 1);
  return Math.max(1, Math.min(wanted, tasks));
}

/**
 * Simulates `scenario` under each scheduler, in order: with `threads` 1 here, one scheduler
 * after another (`onResult` gets each as it is done, so that its report can be built before the
 * next starts); else on `threads` worker threads, then `onResult` for each. Progress goes to
 * stderr on a terminal. A failed thread stops the others and rejects with an
 * {@link InputError} naming its error. A bundle of the command line alone, with no thread code
 * to start, says so on stderr and runs here.
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
  // Loaded only for threads: a run in this thread (and every other command) starts as before.
  const pool = threads > 1 ? await import("../simulations/threads/cluster-threads") : null;
  const canThread = pool?.hasClusterThreadEntry() ?? false;
  if (pool && !canThread) {
    io.stderr(
      "allot: simulate: no worker thread code beside this bundle; simulating in one thread\n",
    );
  }
  if (!pool || !canThread) {
    for (const name of schedulers) {
      const onProgress = progressReporter(io, name);
      const result = runSimulation(scenario, SCHEDULERS[name], onProgress ? { onProgress } : {});
      if (onProgress) io.stderr(CLEAR_LINE);
      onResult(result);
    }
    return;
  }
  const onProgress = replayProgressReporter(io, schedulers);
  let results: SimulationResult[];
  try {
    results = await pool.runReplays(
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
