// The one use case behind POST /api/v1/simulations: validate, store, hand to a worker.
import "server-only";
import { countRunning, createSimulation } from "../store/simulations";
import { AppError } from "../../errors";
import { gzipText } from "../gzip";
import { parseScenario, type ScenarioFile } from "../../sim";
import type { CreateSimulationInput } from "../../validation/simulations";
import {
  applySimulationOptions,
  formatDays,
  LAB_DEFAULT_DAYS,
  PHILLY_DEFAULT_GPUS,
  TREE_DEFAULT_DAYS,
} from "../scenario-options";
import { MAX_RUNNING_WORKERS, startSimulationWorker } from "./start-worker";

function defaultName(input: CreateSimulationInput): string {
  const { options } = input;
  switch (input.source) {
    case "lab":
      return `Generated lab, ${formatDays(options.days ?? LAB_DEFAULT_DAYS)}`;
    case "philly":
      return `Philly trace on ${options.clusterGpus ?? PHILLY_DEFAULT_GPUS} GPUs`;
    case "tree":
      return `Current tree, ${formatDays(options.days ?? TREE_DEFAULT_DAYS)}`;
    default:
      return "Uploaded scenario";
  }
}

/** Refuses an uploaded scenario with every problem and its JSON path (422). */
function checkUpload(input: CreateSimulationInput): void {
  const asGiven = parseScenario(input.scenario);
  const result = asGiven.ok
    ? parseScenario(applySimulationOptions(input.scenario as ScenarioFile, input.options))
    : asGiven;
  if (result.ok) return;
  const count = result.issues.length;
  throw new AppError(
    "validation_failed",
    `The scenario file has ${count.toLocaleString("en-US")} problem${count === 1 ? "" : "s"}.`,
    result.issues.map((issue) => ({ path: issue.path, message: issue.message })),
  );
}

/**
 * Queues a simulation for `userId` and starts a worker when fewer than
 * {@link MAX_RUNNING_WORKERS} are busy (a busy worker takes the queue's next one when done).
 */
export async function startSimulation(userId: string, input: CreateSimulationInput) {
  if (input.source === "upload") checkUpload(input);
  const id = await createSimulation({
    userId,
    name: input.name ?? defaultName(input),
    source: input.source,
    options: input.options,
    scenarioGz: input.source === "upload" ? gzipText(JSON.stringify(input.scenario)) : undefined,
  });
  if ((await countRunning()) < MAX_RUNNING_WORKERS) startSimulationWorker(id);
  return id;
}
