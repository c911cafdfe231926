// node --import tsx lib/simulations/worker/sim-worker.ts [simulationId] - runs simulations off the request path.
// Claims the given simulation (or the oldest queued one), runs baseline and allocation with
// their clusters in worker threads (lib/simulations/threads/cluster-threads.ts), writes progress and results to
// the database, then claims the next queued one until none is left. Started by
// POST /api/v1/simulations; any replica can serve the results.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { createPrismaClient, type Db } from "../../data/db/client";
import {
  claimNextSimulation,
  claimSimulation,
  completeSimulation,
  failSimulation,
  recordProgress,
  storeSimulationTimeline,
  type SimulationInputs,
} from "../store/simulation-store";
import type { Scenario } from "../../sim";
import { gzipJsonParts, joinGzipJson } from "../gzip";
import { sha256 } from "./scenario-cache";
import { loadCachedSimulationScenario, type ScenarioCache } from "./load-scenario";
import { COMPARED_SCHEDULERS, describeScenario, type PackedOutcome } from "../run-scenario";
import {
  runAndPackReplays,
  startClusterThreads,
  type ClusterThreads,
} from "../threads/cluster-threads";
import { deferred } from "../threads/deferred";
import { createProgressWriter } from "./progress-writer";
import { runWhatIf } from "./what-if-job";

/**
 * The bundled worker (scripts/build-worker.ts) keeps built Philly scenarios beside its bundle,
 * keyed on the bundle's bytes: a rebuilt worker never reads another's. Through tsx, whose code is
 * the sources as they are now, it builds them each time.
 */
function scenarioCache(): ScenarioCache | null {
  const bundle = process.env.ALLOT_SIM_WORKER_FILE;
  if (!bundle) return null;
  try {
    return {
      dir: path.join(path.dirname(bundle), "scenarios"),
      codeId: sha256(readFileSync(bundle)),
    };
  } catch {
    return null;
  }
}
const SCENARIO_CACHE = scenarioCache();

async function runSimulation(db: Db, inputs: SimulationInputs): Promise<void> {
  // A thread per replay boots while the scenario is built (more start if it has more clusters).
  const threads = startClusterThreads(Math.min(availableParallelism(), COMPARED_SCHEDULERS.length));
  try {
    await runSimulationOn(threads, db, inputs);
  } finally {
    await threads.close();
  }
}

/** {@link runSimulation} on threads started for it. */
async function runSimulationOn(
  threads: ClusterThreads,
  db: Db,
  inputs: SimulationInputs,
): Promise<void> {
  const startedMs = performance.now();
  const laps: string[] = [];
  let lapMs = startedMs;
  const lap = (label: string, nowMs = performance.now()) => {
    laps.push(`${label} ${((nowMs - lapMs) / 1000).toFixed(1)} s`);
    lapMs = nowMs;
  };
  await recordProgress(db, inputs.id, 0.01, "building the scenario");
  const parsed = await loadCachedSimulationScenario(db, inputs, SCENARIO_CACHE);
  if (!parsed.ok) {
    const lines = parsed.issues.slice(0, 50).map((issue) => `${issue.path}: ${issue.message}`);
    throw new Error(
      `The scenario has ${parsed.issues.length.toLocaleString("en-US")} problem(s):\n${lines.join("\n")}`,
    );
  }
  const scenario: Scenario = parsed.value;
  await recordProgress(
    db,
    inputs.id,
    0.05,
    `simulating ${scenario.jobs.length.toLocaleString("en-US")} jobs`,
  );
  lap("scenario");
  const progress = createProgressWriter(db, inputs.id, COMPARED_SCHEDULERS, {
    from: 0.05,
    to: 0.9,
    done: { progress: 0.92, phase: "building the reports" },
  });
  // Both timelines as one gzip member (the page unzips it with DecompressionStream), the
  // baseline's compressed while allocation still runs.
  const timelines = COMPARED_SCHEDULERS.map(() => deferred<Uint8Array>());
  const timelineGz = gzipJsonParts(
    COMPARED_SCHEDULERS.map((name, i) => [name, timelines[i]!.promise] as const),
  );
  // Stored as soon as it is compressed, while allocation's report is still being built.
  const timelineStored = timelineGz.then((gz) => storeSimulationTimeline(db, inputs.id, gz));
  timelineStored.catch(() => undefined); // awaited below unless the replays fail
  let packed: PackedOutcome[];
  let replayedMs = 0;
  try {
    packed = await runAndPackReplays(
      COMPARED_SCHEDULERS.map((scheduler) => ({
        scenario,
        scheduler,
        scenarioBytes: parsed.bytes,
      })),
      {
        threads,
        onProgress(replayProgress) {
          if (replayProgress.overall === 1) replayedMs = performance.now();
          progress.report(replayProgress);
        },
        onTimeline: (replay, timelineJson) => timelines[replay]!.resolve(timelineJson),
      },
    );
  } catch (error) {
    for (const timeline of timelines) timeline.reject(error);
    throw error;
  }
  await progress.flush();
  lap("replays", replayedMs);
  lap("then reports and timelines");
  const summary = {
    ...describeScenario(scenario),
    schedulers: Object.fromEntries(
      COMPARED_SCHEDULERS.map((name, i) => [name, packed[i]!.summary]),
    ),
  };
  await timelineStored;
  lap("timeline stored");
  await completeSimulation(db, inputs.id, {
    summary: JSON.parse(JSON.stringify(summary)) as never,
    reportGz: joinGzipJson(COMPARED_SCHEDULERS.map((name, i) => [name, packed[i]!.reportGz])),
  });
  lap("store");
  const seconds = ((performance.now() - startedMs) / 1000).toFixed(1);
  console.log(
    `simulation ${inputs.id} (${inputs.source}) done in ${seconds} s (${laps.join(", ")})`,
  );
}

/**
 * What the simulation's page may show of a failure: a simulator's own message as it is, a
 * database error (Prisma's text names tables, columns and values) only as a sentence.
 */
function publicMessage(error: unknown, message: string): string {
  const isDatabaseError = error instanceof Error && error.name.startsWith("PrismaClient");
  return isDatabaseError
    ? "The results could not be stored (a database error); the worker's log has the details."
    : message;
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("sim-worker needs DATABASE_URL");
  const db = createPrismaClient(url, 2);
  try {
    const firstId = process.argv[2];
    let inputs = firstId ? await claimSimulation(db, firstId) : null;
    inputs ??= await claimNextSimulation(db);
    while (inputs) {
      try {
        if (inputs.source === "what-if") await runWhatIf(db, inputs);
        else await runSimulation(db, inputs);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        console.error(`simulation ${inputs.id} failed: ${message}`);
        await failSimulation(db, inputs.id, publicMessage(error, message));
      }
      inputs = await claimNextSimulation(db);
    }
  } finally {
    await db.$disconnect();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
