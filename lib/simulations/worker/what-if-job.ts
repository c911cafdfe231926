// One what-if in the simulation worker: reads the period's demand, replays it under the draft
// (and under the current split when the control was asked for) with the allocation scheduler,
// the clusters of the replays in worker threads, and stores the side-by-side summary on the
// simulation row. Progress is written as for other simulations.
import type { Db } from "../../data/db/client";
import {
  completeSimulation,
  recordProgress,
  type SimulationInputs,
} from "../store/simulation-store";
import { readAppNowSec } from "../store/what-if-store";
import { summariseRun } from "../run-scenario";
import { prepareWhatIf, summariseWhatIf, type ReplayOutcome } from "./what-if-run";
import type { Scenario } from "../../sim";
import { runReplays } from "../threads/cluster-threads";
import { createProgressWriter } from "./progress-writer";

/** Runs the what-if of `inputs` (source "what-if") to its stored result; throws on failure. */
export async function runWhatIf(db: Db, inputs: SimulationInputs) {
  if (!inputs.draftId) throw new Error("This what-if has no draft.");
  await recordProgress(db, inputs.id, 0.01, "reading the period's demand");
  const prepared = await prepareWhatIf(db, inputs.draftId, inputs.options, await readAppNowSec(db));
  if (!prepared.ok) throw new Error(prepared.message);
  const replays: { label: string; scenario: Scenario }[] = [
    ...(prepared.control ? [{ label: "current split", scenario: prepared.control }] : []),
    { label: "draft", scenario: prepared.draft },
  ];
  const times = replays.length === 2 ? "twice" : "under the draft";
  await recordProgress(
    db,
    inputs.id,
    0.05,
    `replaying ${prepared.draft.jobs.length} jobs ${times}`,
  );
  const startedMs = performance.now();
  const progress = createProgressWriter(
    db,
    inputs.id,
    replays.map((replay) => replay.label),
    { from: 0.05, to: 0.95 },
  );
  const results = await runReplays(
    replays.map(({ scenario }) => ({ scenario, scheduler: "allocation" })),
    { onProgress: progress.report },
  );
  await progress.flush();
  await recordProgress(db, inputs.id, 0.97, "comparing");
  // A what-if keeps its summary only: the full report (every run with its reason) is tens of
  // megabytes for a month of the lab, and nothing reads it.
  const outcomes = results.map((result, i): ReplayOutcome => {
    const { report, summary } = summariseRun(replays[i]!.scenario, result, {
      isTimelineWanted: false,
    });
    return { summary, waits: report.jobs.map((job) => job.waitSec) };
  });
  const simulateSec = (performance.now() - startedMs) / 1000;
  const draft = outcomes.at(-1)!;
  const current = prepared.control ? outcomes[0]! : null;
  const summary = summariseWhatIf(prepared, current, draft, simulateSec);
  await completeSimulation(db, inputs.id, {
    summary: JSON.parse(JSON.stringify(summary)) as never,
  });
  return summary;
}
