import { parseScenario, type Scenario } from "../sim";
import { describeProgress, type ReplayProgress } from "../simulations/cluster-tasks";
import { InputError, readInput, type CliIo } from "./io";

/** Back to the start of the line and clear it: ends a progress line. */
export const CLEAR_LINE = "\r\u001b[K";

/** Reads and parses JSON, or an {@link InputError} naming the file. */
export function readJsonFile(io: CliIo, path: string): unknown {
  const text = readInput(io, path);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InputError(`${path}: not valid JSON (${why})`);
  }
}

/**
 * Loads and validates a scenario file; a bad file gives an {@link InputError} listing every
 * problem with its JSON path, one per line.
 */
export function loadScenario(io: CliIo, path: string): Scenario {
  const result = parseScenario(readJsonFile(io, path));
  if (result.ok) return result.value;
  const count = result.issues.length;
  const lines = result.issues.map((issue) => `  ${issue.path}: ${issue.message}`);
  throw new InputError([`${path}: ${count} problem${count === 1 ? "" : "s"}`, ...lines].join("\n"));
}

/** Progress on stderr, only when it is a terminal: `h100 +3d04h` overwritten in place. */
export function progressReporter(
  io: CliIo,
  label: string,
): ((cluster: string, nowSec: number) => void) | undefined {
  if (!io.isStderrTty) return undefined;
  return (cluster, nowSec) => {
    const days = Math.floor(nowSec / 86_400);
    const hours = Math.floor((nowSec % 86_400) / 3600);
    io.stderr(`\r${label}: ${cluster} at day ${days} ${String(hours).padStart(2, "0")}h   `);
  };
}

/**
 * Progress of replays on worker threads, on stderr only when it is a terminal: each replay's
 * percentage and the day its running clusters have reached, overwritten in place, e.g.
 * `baseline 100% · allocation 41% (h100 day 13)`.
 */
export function replayProgressReporter(
  io: CliIo,
  labels: readonly string[],
): ((progress: ReplayProgress) => void) | undefined {
  if (!io.isStderrTty) return undefined;
  return (progress) => io.stderr(`\r${describeProgress(progress, labels)}\u001b[K`);
}
