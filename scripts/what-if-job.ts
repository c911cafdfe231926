// One what-if in the simulation worker: reads the period's demand, replays it under the current
// split and under the draft in two threads (allocation scheduler both times), and stores the
// side-by-side summary on the simulation row. Progress is written as for other simulations.
import type { Db } from "../lib/data/client";
import {
  completeSimulation,
  recordProgress,
  type SimulationInputs,
} from "../lib/data/simulation-store";
import { readAppNowSec } from "../lib/data/what-if-store";
import type { SchedulerSummary } from "../lib/simulations/summary";
import { prepareWhatIf, summariseWhatIf } from "../lib/simulations/what-if-run";
import type { ThreadInput, ThreadMessage } from "./sim-thread";

type Finished = Extract<ThreadMessage, { type: "done" }>;
export type ThreadRunner = (
  input: ThreadInput,
  onProgress: (fraction: number, nowSec: number) => void,
) => Promise<Finished>;

const WRITE_EVERY_MS = 500;
const REPLAYS = ["current split", "draft"] as const;

/** Runs the what-if of `inputs` (source "what-if") to its stored result; throws on failure. */
export async function runWhatIf(db: Db, inputs: SimulationInputs, runThread: ThreadRunner) {
  if (!inputs.draftId) throw new Error("This what-if has no draft.");
  await recordProgress(db, inputs.id, 0.01, "reading the period's demand");
  const prepared = await prepareWhatIf(db, inputs.draftId, inputs.options, await readAppNowSec(db));
  if (!prepared.ok) throw new Error(prepared.message);
  const fractions = [0, 0];
  const days = [0, 0];
  let lastWriteMs = 0;
  let writing: Promise<void> = Promise.resolve();
  function report(index: number, fraction: number, nowSec: number): void {
    fractions[index] = fraction;
    days[index] = Math.floor(nowSec / 86_400) + 1;
    const nowMs = performance.now();
    if (nowMs - lastWriteMs < WRITE_EVERY_MS) return;
    lastWriteMs = nowMs;
    const mean = (fractions[0]! + fractions[1]!) / 2;
    const phase = REPLAYS.map(
      (replay, i) => `${replay} ${Math.round(fractions[i]! * 100)}% (day ${days[i]})`,
    ).join(" · ");
    writing = writing.then(() => recordProgress(db, inputs.id, 0.05 + 0.9 * mean, phase));
  }
  const jobCount = prepared.control.jobs.length;
  await recordProgress(db, inputs.id, 0.05, `replaying ${jobCount} jobs twice`);
  const startedMs = performance.now();
  const scenarios = [prepared.control, prepared.draft];
  const outcomes = await Promise.all(
    scenarios.map((scenario, i) =>
      runThread({ scenario, scheduler: "allocation", isForWhatIf: true }, (fraction, nowSec) =>
        report(i, fraction, nowSec),
      ),
    ),
  );
  const simulateSec = (performance.now() - startedMs) / 1000;
  await writing;
  await recordProgress(db, inputs.id, 0.97, "comparing");
  const [current, draft] = outcomes.map((outcome) => ({
    summary: outcome.summary as SchedulerSummary,
    waits: outcome.waits ?? [],
  }));
  const summary = summariseWhatIf(prepared, current!, draft!, simulateSec);
  await completeSimulation(db, inputs.id, {
    summary: JSON.parse(JSON.stringify(summary)) as never,
  });
  return summary;
}
