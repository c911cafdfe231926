// Progress of a run in the simulation worker, written to its row as threads report it.
import type { Db } from "../../data/db/client";
import { recordProgress } from "../store/simulation-store";
import { describeProgress, type ReplayProgress } from "../cluster-tasks";

const WRITE_EVERY_MS = 500;

/**
 * Writes a run's progress (lib/simulations/threads/cluster-threads.ts reports) at most twice a second, mapped
 * onto `[from, to]` of the bar, with one label per replay; `flush` waits for the writes under
 * way (a failed write fails the run). With `done`, the moment every replay is simulated is
 * written at once as that phase (their reports are built after, still inside the run).
 */
export function createProgressWriter(
  db: Db,
  id: string,
  labels: readonly string[],
  range: { from: number; to: number; done?: { progress: number; phase: string } },
) {
  let lastWriteMs = 0;
  let writing: Promise<void> = Promise.resolve();
  return {
    report(progress: ReplayProgress): void {
      const { done } = range;
      if (done && progress.overall === 1) {
        writing = writing.then(() => recordProgress(db, id, done.progress, done.phase));
        return;
      }
      const nowMs = performance.now();
      if (nowMs - lastWriteMs < WRITE_EVERY_MS) return;
      lastWriteMs = nowMs;
      const fraction = range.from + (range.to - range.from) * progress.overall;
      const phase = describeProgress(progress, labels);
      writing = writing.then(() => recordProgress(db, id, fraction, phase));
    },
    flush: (): Promise<void> => writing,
  };
}
