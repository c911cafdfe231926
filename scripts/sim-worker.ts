// node --import tsx scripts/sim-worker.ts [simulationId] - runs simulations off the request path.
// Claims the given simulation (or the oldest queued one), runs baseline and allocation in two
// worker threads, writes progress and results to the database, then claims the next queued one
// until none is left. Started by POST /api/v1/simulations; any replica can serve the results.
import { Worker } from "node:worker_threads";
import { createPrismaClient, type Db } from "../lib/data/client";
import {
  claimNextSimulation,
  claimSimulation,
  completeSimulation,
  failSimulation,
  recordProgress,
  type SimulationInputs,
} from "../lib/data/simulation-store";
import type { Scenario, SchedulerName } from "../lib/sim";
import { joinGzipJson } from "../lib/simulations/gzip";
import { loadSimulationScenario } from "../lib/simulations/load-scenario";
import { COMPARED_SCHEDULERS, describeScenario } from "../lib/simulations/run-scenario";
import type { ThreadInput, ThreadMessage } from "./sim-thread";
import { runWhatIf } from "./what-if-job";

const THREAD_URL = new URL("./sim-thread.ts", import.meta.url).href;
const WRITE_EVERY_MS = 500;

type Finished = Extract<ThreadMessage, { type: "done" }>;

function runThread(
  input: ThreadInput,
  onProgress: (fraction: number, nowSec: number) => void,
): Promise<Finished> {
  // Node 20 does not apply --import loaders to a worker's entry file: register tsx first.
  const boot = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(THREAD_URL)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: input });
  return new Promise((resolve, reject) => {
    worker.on("message", (message: ThreadMessage) => {
      if (message.type === "progress") onProgress(message.fraction, message.nowSec);
      else resolve(message);
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      if (code !== 0) reject(new Error(`The ${input.scheduler} thread exited with code ${code}.`));
    });
  });
}

function formatDay(nowSec: number): string {
  return `day ${Math.floor(nowSec / 86_400) + 1}`;
}

async function runSimulation(db: Db, inputs: SimulationInputs): Promise<void> {
  const startedMs = performance.now();
  await recordProgress(db, inputs.id, 0.01, "building the scenario");
  const parsed = await loadSimulationScenario(db, inputs);
  if (!parsed.ok) {
    const lines = parsed.issues.slice(0, 50).map((issue) => `${issue.path}: ${issue.message}`);
    throw new Error(`The scenario has ${parsed.issues.length} problem(s):\n${lines.join("\n")}`);
  }
  const scenario: Scenario = parsed.value;
  const fractions = new Map<SchedulerName, number>(COMPARED_SCHEDULERS.map((name) => [name, 0]));
  const clocks = new Map<SchedulerName, number>();
  let lastWriteMs = 0;
  let writing: Promise<void> = Promise.resolve();
  function report(name: SchedulerName, fraction: number, nowSec: number): void {
    fractions.set(name, fraction);
    clocks.set(name, nowSec);
    const nowMs = performance.now();
    if (nowMs - lastWriteMs < WRITE_EVERY_MS) return;
    lastWriteMs = nowMs;
    const mean = [...fractions.values()].reduce((a, b) => a + b, 0) / fractions.size;
    const phase = COMPARED_SCHEDULERS.map(
      (n) =>
        `${n} ${Math.round((fractions.get(n) ?? 0) * 100)}% (${formatDay(clocks.get(n) ?? 0)})`,
    ).join(" · ");
    writing = writing.then(() => recordProgress(db, inputs.id, 0.05 + 0.9 * mean, phase));
  }
  await recordProgress(db, inputs.id, 0.05, `simulating ${scenario.jobs.length} jobs`);
  const outcomes = await Promise.all(
    COMPARED_SCHEDULERS.map((name) =>
      runThread({ scenario, scheduler: name }, (fraction, nowSec) =>
        report(name, fraction, nowSec),
      ).then((outcome) => {
        report(name, 1, clocks.get(name) ?? 0);
        return outcome;
      }),
    ),
  );
  await writing;
  await recordProgress(db, inputs.id, 0.97, "saving the results");
  const summary = {
    ...describeScenario(scenario),
    schedulers: Object.fromEntries(
      COMPARED_SCHEDULERS.map((name, i) => [name, outcomes[i]!.summary]),
    ),
  };
  await completeSimulation(db, inputs.id, {
    summary: JSON.parse(JSON.stringify(summary)) as never,
    reportGz: joinGzipJson(COMPARED_SCHEDULERS.map((name, i) => [name, outcomes[i]!.reportGz!])),
    timelineGz: joinGzipJson(
      COMPARED_SCHEDULERS.map((name, i) => [name, outcomes[i]!.timelineGz!]),
    ),
  });
  const seconds = ((performance.now() - startedMs) / 1000).toFixed(1);
  console.log(`simulation ${inputs.id} (${inputs.source}) done in ${seconds} s`);
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
        if (inputs.source === "what-if") await runWhatIf(db, inputs, runThread);
        else await runSimulation(db, inputs);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        console.error(`simulation ${inputs.id} failed: ${message}`);
        await failSimulation(db, inputs.id, message);
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
