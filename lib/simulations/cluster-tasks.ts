// Simulations split into (replay, cluster) tasks for worker threads, and their progress.
// Clusters are independent, so each task is one cluster of one replay; the largest go first so
// the longest task starts at once and the small ones fill the other threads around it.
import type { Scenario, SchedulerName } from "../sim";

/**
 * One simulation to run: a scenario under one scheduler; `scenarioBytes`, the scenario's
 * v8.serialize bytes when at hand (the scenario cache's), spares serialising it for the threads.
 */
export type Replay = { scenario: Scenario; scheduler: SchedulerName; scenarioBytes?: Uint8Array };

/** One cluster of one replay, the work of one thread. `size` is the cluster's GPUs x its jobs. */
export type ClusterTask = { replay: number; cluster: string; size: number };

/**
 * One task per cluster of each replay, largest first (GPUs x jobs, a proxy for simulation time);
 * ties keep replay order, then cluster order.
 *
 * @example planClusterTasks([{ scenario, scheduler: "allocation" }])[0].cluster // "h100"
 */
export function planClusterTasks(replays: readonly Replay[]): ClusterTask[] {
  const tasks = replays.flatMap(({ scenario }, replay) => {
    const jobsByCluster = new Map<string, number>();
    for (const job of scenario.jobs) {
      jobsByCluster.set(job.cluster, (jobsByCluster.get(job.cluster) ?? 0) + 1);
    }
    return scenario.clusters.map((cluster) => ({
      replay,
      cluster: cluster.name,
      size: cluster.nodes * cluster.gpusPerNode * (jobsByCluster.get(cluster.name) ?? 0),
    }));
  });
  return tasks.sort((a, b) => b.size - a.size);
}

/** Where the replays are: each one's fraction done, all together, and the clusters running. */
export type ReplayProgress = {
  /** Per replay, in [0, 1]: its clusters' fractions weighted by their size. */
  fractions: number[];
  /** All replays together, in [0, 1], weighted the same way. */
  overall: number;
  /**
   * Clusters started and not finished, in task order, with their clocks (seconds); `isFinishing`
   * once a replay with no horizon is past its last submission and runs out its queue.
   */
  running: { replay: number; cluster: string; nowSec: number; isFinishing: boolean }[];
};

/** Follows the tasks of {@link planClusterTasks} as threads report their clocks. */
export type ProgressTracker = {
  /** A task's clock moved to `nowSec` (it is running). */
  update: (task: number, nowSec: number) => void;
  /** A task finished. */
  finish: (task: number) => void;
  snapshot: () => ReplayProgress;
};

/**
 * A tracker of `tasks` (of `replays`): a cluster's own fraction is its clock against the
 * horizon (or its last arrival when there is none), held below 1 until it finishes. A task's
 * weight is its size (at least 1, so an idle cluster still counts once).
 *
 * @example const tracker = createProgressTracker(replays, tasks); tracker.update(0, 86_400); tracker.snapshot().overall
 */
export function createProgressTracker(
  replays: readonly Replay[],
  tasks: readonly ClusterTask[],
): ProgressTracker {
  const endSecs = tasks.map(({ replay, cluster }) => {
    const { scenario } = replays[replay]!;
    if (scenario.horizonSec !== null) return Math.max(1, scenario.horizonSec);
    let lastSubmitSec = 1;
    for (const job of scenario.jobs) {
      if (job.cluster === cluster) lastSubmitSec = Math.max(lastSubmitSec, job.submitSec);
    }
    return lastSubmitSec;
  });
  const weights = tasks.map((task) => Math.max(1, task.size));
  const within = tasks.map(() => 0);
  const clocks: (number | null)[] = tasks.map(() => null);
  const isDone = tasks.map(() => false);
  return {
    update(task, nowSec) {
      if (isDone[task]) return;
      clocks[task] = nowSec;
      within[task] = Math.min(0.99, nowSec / endSecs[task]!);
    },
    finish(task) {
      isDone[task] = true;
      within[task] = 1;
    },
    snapshot() {
      const sumOf = (pick: (task: ClusterTask) => boolean, value: (i: number) => number) =>
        tasks.reduce((sum, task, i) => (pick(task) ? sum + value(i) : sum), 0);
      const fractionOf = (pick: (task: ClusterTask) => boolean) =>
        sumOf(pick, (i) => weights[i]! * within[i]!) /
        Math.max(
          1,
          sumOf(pick, (i) => weights[i]!),
        );
      return {
        fractions: replays.map((_, replay) => fractionOf((task) => task.replay === replay)),
        overall: fractionOf(() => true),
        running: tasks.flatMap(({ replay, cluster }, i) => {
          const nowSec = clocks[i] ?? null;
          if (nowSec === null || isDone[i]) return [];
          const isFinishing =
            replays[replay]!.scenario.horizonSec === null && nowSec >= endSecs[i]!;
          return [{ replay, cluster, nowSec, isFinishing }];
        }),
      };
    },
  };
}

/**
 * The progress line a page shows: per replay its percentage and the day each running cluster
 * has reached, e.g. "draft 40% (h100 day 9, b300 day 27)".
 *
 * @example describeProgress(tracker.snapshot(), ["current split", "draft"])
 */
export function describeProgress(progress: ReplayProgress, labels: readonly string[]): string {
  return labels
    .map((label, replay) => {
      const percent = Math.floor((progress.fractions[replay] ?? 0) * 100);
      const days = progress.running
        .filter((clock) => clock.replay === replay)
        .map(
          (clock) =>
            `${clock.cluster} day ${Math.floor(clock.nowSec / 86_400) + 1}` +
            (clock.isFinishing ? ", past the last submission, finishing the queue" : ""),
        );
      return `${label} ${percent}%${days.length > 0 ? ` (${days.join(", ")})` : ""}`;
    })
    .join(" · ");
}
