import { readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { pathToFileURL } from "node:url";
import packageJson from "../../package.json" with { type: "json" };
import type { LiveDeps } from "./api-config";
import { ApiRequestError, EXIT, ServerUnreachableError, TokenRefusedError } from "./api-errors";
import { runBudgetsCommand } from "./budgets-command";
import { runCancelCommand } from "./cancel-command";
import { runGenerateCommand } from "./generate-command";
import { runImportTraceCommand } from "./import-trace-command";
import { runNodesCommand } from "./nodes-command";
import { assertWritable } from "./file-checks";
import { InputError, UsageError, type CliIo } from "./io";
import { runQueueCommand } from "./queue-command";
import { runSharesCommand } from "./shares-command";
import { runSimulateCommand } from "./simulate-command";
import { runSlurmCommand } from "./slurm-command";
import { runSqueueCommand } from "./squeue-command";
import { runSshareCommand } from "./sshare-command";
import { runSubmitCommand } from "./submit-command";
import { runWhyCommand } from "./why-command";

/** `allot --help`. */
export const MAIN_HELP = `Usage: allot <command> [options]

GPU-time budgets and fair-share scheduling: the live queue and budgets of an Allot server,
scenarios to simulate, inspect and generate, and SLURM clusters to connect.

Live commands (an Allot server: --server or ALLOT_SERVER, a personal token in ALLOT_TOKEN, or
both in ~/.config/allot/config.json):
  squeue [--cluster C]          the ranked queue, reasons and start estimates (--me, --start)
  sshare [--cluster C]          the budget tree with live usage, LF and ranks, like sshare -l
  why <job>                     a job's state, rank and decisions, in sentences (<job>: Allot's
                                or SLURM's job id)
  submit --cluster C ...        submit a job (--name, --gpus, --min-runtime, --budget...)
  cancel <job>...               cancel jobs (<job>: Allot's or SLURM's job id)
  budgets                       the budget tree: weights, fractions, effective shares, leads
  nodes [--cluster C]           nodes' health and use, like sinfo -N; admins: drain, down, resume

Scenario commands (offline, from a scenario file):
  simulate <scenario>           run the simulator (allocation, baseline or both) and report
  shares <scenario> --at T      the budget tree at a moment, like sshare -l
  queue <scenario> --at T       running and pending jobs of a cluster with reasons, like squeue
  generate --profile lab        write a synthetic scenario (--days N --seed S)
  import-trace philly <csv>     turn the Philly trace into a scenario (--gpus N)
  slurm <command>               connect a SLURM cluster: register, sync-accounts, bridge

Run allot <command> --help for a command's options; live commands all take --json.
allot --version prints the version.
Exit codes: 0 ok; 1 bad input file, failed run, or a request the server refused (not found,
conflict, its own error); 2 bad usage or input; 3 server unreachable; 4 no token, token
refused or not allowed. docs/cli.md has more.
`;

type Command = (argv: string[], io: CliIo, live: LiveDeps) => number | Promise<number>;

// simulate is asynchronous (its clusters may run on worker threads), and so are the live
// commands (they call the server); the others are not.
const COMMANDS: Record<string, Command> = {
  squeue: runSqueueCommand,
  sshare: runSshareCommand,
  why: runWhyCommand,
  submit: runSubmitCommand,
  cancel: runCancelCommand,
  budgets: runBudgetsCommand,
  nodes: runNodesCommand,
  simulate: runSimulateCommand,
  shares: runSharesCommand,
  queue: runQueueCommand,
  generate: runGenerateCommand,
  "import-trace": runImportTraceCommand,
  slurm: (argv, io) => runSlurmCommand(argv, io),
};

/** The exit code and message of an expected failure, or null for a bug (rethrown). */
function exitOf(error: unknown): { code: number; message: string } | null {
  if (error instanceof UsageError) return { code: EXIT.usage, message: error.message };
  if (error instanceof InputError) return { code: EXIT.failed, message: error.message };
  if (error instanceof ServerUnreachableError) {
    return { code: EXIT.unreachable, message: error.message };
  }
  if (error instanceof TokenRefusedError) return { code: EXIT.refused, message: error.message };
  if (error instanceof ApiRequestError) {
    const prefix =
      error.status >= 500
        ? "the server failed: "
        : error.status >= 400
          ? "the server refused: "
          : "";
    return { code: EXIT.failed, message: `${prefix}${error.message}` };
  }
  return null;
}

/**
 * The command line: dispatches to a command and maps errors to exit codes (`EXIT`: 2 for usage,
 * 1 for bad input, a failed run or a refused request, 3 for an unreachable server, 4 for a
 * missing or refused token), printing one clear message and never a stack trace for expected
 * problems. Resolves once the command is done (and its threads, if any, have stopped).
 */
export async function main(
  argv: string[],
  io: CliIo,
  live: LiveDeps = createProcessLiveDeps(),
): Promise<number> {
  // `allot help simulate` is `allot simulate --help`, as in git and most tools.
  if (argv[0] === "help" && argv[1] !== undefined) return main([argv[1], "--help"], io, live);
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.stdout(MAIN_HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === "--version" || command === "-V" || command === "version") {
    io.stdout(`allot ${packageJson.version}\n`);
    return 0;
  }
  const run = COMMANDS[command];
  try {
    if (!run) throw new UsageError(`unknown command "${command}" (see allot --help)`);
    return await run(rest, io, live);
  } catch (error) {
    const exit = exitOf(error);
    if (exit === null) throw error;
    io.stderr(`allot: ${exit.message}\n`);
    return exit.code;
  }
}

/** The real process's environment, home and config file, for the live commands. */
export function createProcessLiveDeps(): LiveDeps {
  return {
    env: process.env,
    homeDir: homedir(),
    readConfigFile(path) {
      try {
        return { text: readFileSync(path, "utf8"), mode: statSync(path).mode };
      } catch (error) {
        if ((error as { code?: string }).code === "ENOENT") return null;
        throw new UsageError(`${path}: cannot read (${(error as { code?: string }).code})`);
      }
    },
  };
}

/**
 * A reader that stops early (`allot shares ... | head`) closes the pipe: the command stops
 * quietly, as Unix tools do, instead of dying on EPIPE with a stack trace.
 */
function stopOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(0);
  });
}

/** The real process's io: standard streams and the file system. */
export function createProcessIo(): CliIo {
  stopOnClosedPipe(process.stdout);
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isStderrTty: process.stderr.isTTY === true,
    readText: (path) => readFileSync(path, "utf8"),
    writeText: (path, text) => writeFileSync(path, text),
    checkWritable: assertWritable,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), createProcessIo());
}
