import { isWeightTooSmall, MIN_NONZERO_WEIGHT } from "../engine";
import { plural } from "../engine/explain-words";
import { convertPhillyTrace, parsePhillyCsv, type PhillyWeights } from "../sim";
import { expectPositionals, parseCommandArgs, parseIntegerFlag, requireString } from "./args";
import {
  checkOutput,
  checkOutputsApart,
  InputError,
  readInput,
  UsageError,
  writeOutput,
  type CliIo,
} from "./io";

/** `allot import-trace --help`. */
export const IMPORT_TRACE_HELP = `Usage: allot import-trace philly <trace.csv> --gpus <N> [options]

Turns the Philly trace (Microsoft Research, CC-BY-4.0; columns timestamp, duration, num_gpus,
gpu_time, cluster) into a scenario: one cluster of N GPUs (8 per node), one budget per virtual
cluster, submit times relative to the earliest, work = duration, min runtime = min(duration,
1h). See docs/decisions/020-philly-mapping.md.

Options:
  --gpus <N>         GPUs of the simulated cluster, a multiple of 8
  --weights <how>    demand (default: each budget weighted by its GPU-hours), equal, or a list
                     name=weight,name=weight (budgets not listed get 0)
  --out <file>       write here instead of standard output
  -h, --help         show this help
`;

function parseWeights(text: string | undefined): PhillyWeights {
  if (text === undefined || text === "demand") return { kind: "demand" };
  if (text === "equal") return { kind: "equal" };
  const weights: Record<string, number> = {};
  for (const part of text.split(",")) {
    const [name, value] = part.split("=");
    const weight = Number(value);
    if (!name || !value?.trim() || !Number.isFinite(weight) || weight < 0) {
      throw new UsageError(
        `import-trace: --weights "${part}" is not name=weight (a non-negative number)`,
      );
    }
    if (isWeightTooSmall(weight)) {
      throw new UsageError(
        `import-trace: --weights "${part}": a weight is 0 or at least ${MIN_NONZERO_WEIGHT}`,
      );
    }
    // Given twice, the later weight would silently replace the one the user may be reading.
    if (Object.hasOwn(weights, name)) {
      throw new UsageError(`import-trace: --weights gives "${name}" twice`);
    }
    weights[name] = weight;
  }
  return { kind: "given", weights };
}

/**
 * Every name given a weight must be a virtual cluster of the trace: a misspelt one would leave
 * every budget at weight 0, owed nothing, and the simulation would say nothing of it.
 */
function checkWeightNames(
  weights: Record<string, number>,
  rows: readonly { virtualCluster: string }[],
): void {
  const known = new Set(rows.map((row) => row.virtualCluster));
  const unknown = Object.keys(weights).filter((name) => !known.has(name));
  if (unknown.length === 0) return;
  const listed = [...known].sort();
  const shown = listed.slice(0, 8).join(", ") + (listed.length > 8 ? ", ..." : "");
  throw new UsageError(
    `import-trace: --weights names ${unknown.map((name) => `"${name}"`).join(", ")}, not a virtual cluster of the trace (it has ${listed.length}: ${shown})`,
  );
}

/** `allot import-trace`: returns the exit code. */
export function runImportTraceCommand(argv: string[], io: CliIo): number {
  const args = parseCommandArgs("import-trace", argv, {
    gpus: { type: "string" },
    weights: { type: "string" },
    out: { type: "string" },
  });
  if (args.values.help) {
    io.stdout(IMPORT_TRACE_HELP);
    return 0;
  }
  const [format, path] = expectPositionals("import-trace", args, ["format", "trace.csv"]);
  if (format !== "philly")
    throw new UsageError(`import-trace: unknown trace format "${format}" (known: philly)`);
  const gpus = parseIntegerFlag(
    "import-trace",
    "gpus",
    requireString("import-trace", args, "gpus"),
    8,
    1_000_000,
  );
  if (gpus % 8 !== 0)
    throw new UsageError(
      `import-trace: --gpus must be a multiple of 8 (8 GPUs per node), got ${gpus}`,
    );
  const weights = parseWeights(args.values.weights as string | undefined);
  checkOutputsApart(
    "import-trace",
    { what: "trace", path: path as string },
    { out: args.values.out },
  );
  if (typeof args.values.out === "string") checkOutput(io, args.values.out);
  const parsed = parsePhillyCsv(readInput(io, path as string));
  if (!parsed.ok) {
    const shown = parsed.issues.slice(0, 20).map((issue) => `  ${issue}`);
    const more = parsed.issues.length > 20 ? [`  ... and ${parsed.issues.length - 20} more`] : [];
    const heading = `${path}: ${plural(parsed.issues.length, "bad line", "bad lines")}`;
    throw new InputError([heading, ...shown, ...more].join("\n"));
  }
  if (weights.kind === "given") checkWeightNames(weights.weights, parsed.rows);
  const text = `${JSON.stringify(convertPhillyTrace(parsed.rows, { gpus, weights }), null, 1)}\n`;
  if (typeof args.values.out === "string") writeOutput(io, args.values.out, text);
  else io.stdout(text);
  return 0;
}
