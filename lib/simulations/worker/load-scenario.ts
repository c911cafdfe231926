// Builds the scenario of a stored simulation (worker side): a built-in source from its options,
// or the uploaded file. Reads the Philly trace from beside the repository, never from inside it.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { serialize } from "node:v8";
import { gunzipSync } from "node:zlib";
import type { Db } from "../../data/db/client";
import { loadTreeForScenario, type SimulationInputs } from "../store/simulation-store";
import {
  convertPhillyTrace,
  parsePhillyCsv,
  parseScenario,
  type Scenario,
  type ScenarioFile,
  type ScenarioIssue,
  type ScenarioResult,
} from "../../sim";
import { generateLabScenario } from "../../demo/lab-workload";
import {
  readCachedScenario,
  scenarioCacheKey,
  sha256,
  writeCachedScenario,
} from "./scenario-cache";
import {
  applySimulationOptions,
  DEFAULT_SEED,
  hasFileOptions,
  LAB_DEFAULT_DAYS,
  PHILLY_DEFAULT_GPUS,
  TREE_DEFAULT_DAYS,
  type SimulationOptions,
} from "../scenario-options";
import { buildTreeScenario } from "../tree-scenario";

// The worker's bundle (scripts/build-worker.ts) sits elsewhere, so it is told the root.
const REPO_ROOT =
  process.env.ALLOT_SIM_APP_ROOT ?? path.resolve(import.meta.dirname, "..", "..", "..");

/** Where the Philly trace is read from: ALLOT_PHILLY_CSV, else ../shared/traces/philly.csv. */
export function phillyTracePath(env: Readonly<Record<string, string | undefined>> = process.env) {
  return env.ALLOT_PHILLY_CSV ?? path.resolve(REPO_ROOT, "..", "shared", "traces", "philly.csv");
}

function readPhillyTrace(): Buffer {
  const file = phillyTracePath();
  if (!existsSync(file)) {
    throw new Error(`The Philly trace is not at ${file}: set ALLOT_PHILLY_CSV to its path.`);
  }
  return readFileSync(file);
}

function phillyScenario(trace: Buffer, options: SimulationOptions): ScenarioFile {
  const parsed = parsePhillyCsv(trace.toString("utf8"));
  if (!parsed.ok) throw new Error(`The Philly trace has bad lines: ${parsed.issues[0]}`);
  let rows = parsed.rows;
  if (options.days) {
    const firstSec = Math.min(...rows.map((row) => row.submitUnixSec));
    rows = rows.filter((row) => row.submitUnixSec < firstSec + options.days! * 86_400);
  }
  return convertPhillyTrace(rows, { gpus: options.clusterGpus ?? PHILLY_DEFAULT_GPUS });
}

/**
 * The scenario file of a simulation before options are applied (`trace`: the Philly trace's
 * bytes, when already read).
 */
async function buildFile(
  db: Db,
  inputs: SimulationInputs,
  trace?: Buffer,
): Promise<ScenarioFile | unknown> {
  const options = (inputs.options ?? {}) as SimulationOptions;
  const seed = options.seed ?? DEFAULT_SEED;
  switch (inputs.source) {
    case "lab":
      return generateLabScenario({ days: options.days ?? LAB_DEFAULT_DAYS, seed });
    case "philly":
      return phillyScenario(trace ?? readPhillyTrace(), options);
    case "tree": {
      const { nodes, clusters } = await loadTreeForScenario(db);
      return buildTreeScenario(nodes, clusters, { days: options.days ?? TREE_DEFAULT_DAYS, seed });
    }
    case "upload":
      if (!inputs.scenarioGz) throw new Error("The uploaded scenario is missing.");
      return JSON.parse(gunzipSync(inputs.scenarioGz).toString("utf8")) as unknown;
    default:
      throw new Error(`Unknown simulation source "${inputs.source}".`);
  }
}

/**
 * The validated scenario of a stored simulation, with its options applied. An uploaded file is
 * validated as uploaded first, so that its problems keep the paths of the file.
 */
export async function loadSimulationScenario(
  db: Db,
  inputs: SimulationInputs,
  trace?: Buffer,
): Promise<ScenarioResult> {
  const file = await buildFile(db, inputs, trace);
  const asGiven = parseScenario(file);
  if (!asGiven.ok) return asGiven;
  const options = (inputs.options ?? {}) as SimulationOptions;
  // Without options for the file, it is used as given, and so is its validation (a second
  // parseScenario of Philly's 82k jobs costs 0.7 s).
  if (!hasFileOptions(options)) return asGiven;
  return parseScenario(applySimulationOptions(file as ScenarioFile, options));
}

/** Where a worker keeps built scenarios, and the hash of its own code that keys them. */
export type ScenarioCache = { dir: string; codeId: string };

/** A validated scenario with its v8.serialize bytes when at hand (the cluster threads' form). */
export type LoadedScenario =
  { ok: true; value: Scenario; bytes?: Uint8Array } | { ok: false; issues: ScenarioIssue[] };

/**
 * {@link loadSimulationScenario}, a Philly scenario from `cache` when it was built before from
 * the same code, Node version, trace bytes and options (lib/simulations/worker/scenario-cache.ts), and
 * cached when built. Other sources are built each time: the tree's comes from the database, an
 * upload is used once and a generated lab is quick.
 */
export async function loadCachedSimulationScenario(
  db: Db,
  inputs: SimulationInputs,
  cache: ScenarioCache | null,
): Promise<LoadedScenario> {
  if (!cache || inputs.source !== "philly") return loadSimulationScenario(db, inputs);
  const trace = readPhillyTrace();
  const key = scenarioCacheKey({
    source: inputs.source,
    code: cache.codeId,
    node: process.version,
    trace: sha256(trace),
    options: inputs.options ?? {},
  });
  const cached = readCachedScenario(cache.dir, key);
  if (cached) return { ok: true, value: cached.scenario, bytes: cached.bytes };
  const built = await loadSimulationScenario(db, inputs, trace);
  if (!built.ok) return built;
  const bytes = serialize(built.value);
  writeCachedScenario(cache.dir, key, bytes);
  return { ...built, bytes };
}
