import { generateLabScenario, WORKLOAD_PROFILES } from "../demo/lab-workload";
import { MAX_GENERATE_DAYS, MAX_SIMULATION_DAYS } from "../validation/simulation-limits";
import { parseCommandArgs, parseIntegerFlag, requireString } from "./args";
import { checkOutput, UsageError, writeOutput, type CliIo } from "./io";

/** `allot generate --help`. */
export const GENERATE_HELP = `Usage: allot generate --profile <name> --days <N> --seed <S> [--out <file>]

Writes a synthetic scenario of the demo lab's tree (4 programs, 15 projects, ~150 researchers),
with inflated priorities and non-preemptible opt-outs in the baseline fields. Same seed, same
file. Profiles:
  lab              clusters h100 (128 x 8), b200 (64 x 8) and b300 (11 x 8); demand 2-3x supply
                   by each project's share; multi-node training, debug jobs, interactive
                   sessions, opportunistic jobs (min runtime 0)
  lab-whole-node   one cluster c40 (40 x 8); whole-node training of 8-64 GPUs with min runtimes
                   of 2-8 h offering 2.5x the capacity, spread over the projects regardless of
                   their weights; ~60 debug jobs a day (1-8 GPUs, 15 min); a few free jobs

Options:
  --profile <name>   lab or lab-whole-node
  --days <N>         length of the scenario in days, 1 to ${MAX_GENERATE_DAYS} (the browser's
                     Days field stops at ${MAX_SIMULATION_DAYS}: it runs on the shared server)
  --seed <S>         seed of the random generator, 0 to 4294967295
  --out <file>       write here instead of standard output
  -h, --help         show this help
`;

/** `allot generate`: returns the exit code. */
export function runGenerateCommand(argv: string[], io: CliIo): number {
  const args = parseCommandArgs("generate", argv, {
    profile: { type: "string" },
    days: { type: "string" },
    seed: { type: "string" },
    out: { type: "string" },
  });
  if (args.values.help) {
    io.stdout(GENERATE_HELP);
    return 0;
  }
  if (args.positionals.length > 0)
    throw new UsageError(`generate: unexpected argument "${args.positionals[0]}"`);
  const profile = requireString("generate", args, "profile");
  const workload = Object.hasOwn(WORKLOAD_PROFILES, profile)
    ? WORKLOAD_PROFILES[profile]
    : undefined;
  if (!workload) {
    const known = Object.keys(WORKLOAD_PROFILES).join(", ");
    throw new UsageError(`generate: unknown --profile "${profile}" (known: ${known})`);
  }
  const days = parseIntegerFlag(
    "generate",
    "days",
    requireString("generate", args, "days"),
    1,
    MAX_GENERATE_DAYS,
  );
  const seed = parseIntegerFlag(
    "generate",
    "seed",
    requireString("generate", args, "seed"),
    0,
    4_294_967_295,
  );
  if (typeof args.values.out === "string") checkOutput(io, args.values.out);
  const text = `${JSON.stringify(generateLabScenario({ days, seed, profile: workload }), null, 1)}\n`;
  if (typeof args.values.out === "string") writeOutput(io, args.values.out, text);
  else io.stdout(text);
  return 0;
}
