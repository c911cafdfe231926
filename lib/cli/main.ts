import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { runGenerateCommand } from "./generate-command";
import { runImportTraceCommand } from "./import-trace-command";
import { InputError, UsageError, type CliIo } from "./io";
import { runQueueCommand } from "./queue-command";
import { runSharesCommand } from "./shares-command";
import { runSimulateCommand } from "./simulate-command";
import { runSlurmCommand } from "./slurm-command";

/** `allot --help`. */
export const MAIN_HELP = `Usage: allot <command> [options]

GPU-time budgets and fair-share scheduling: simulate, inspect and generate scenarios, and
connect SLURM clusters.

Commands:
  simulate <scenario>       run the simulator (allocation, baseline or both) and report
  shares <scenario> --at T  the budget tree at a moment, like sshare -l
  queue <scenario> --at T   running and pending jobs of a cluster with reasons, like squeue
  generate --profile lab    write a synthetic scenario (--days N --seed S)
  import-trace philly <csv> turn the Philly trace into a scenario (--gpus N)
  slurm <command>           connect a SLURM cluster: register, sync-accounts, bridge

Run allot <command> --help for a command's options. Exit codes: 0 ok, 1 bad input or a failed
run, 2 bad usage.
`;

// simulate is asynchronous (its clusters may run on worker threads); the others are not.
const COMMANDS: Record<string, (argv: string[], io: CliIo) => number | Promise<number>> = {
  simulate: runSimulateCommand,
  shares: runSharesCommand,
  queue: runQueueCommand,
  generate: runGenerateCommand,
  "import-trace": runImportTraceCommand,
  slurm: (argv, io) => runSlurmCommand(argv, io),
};

/**
 * The command line: dispatches to a command and maps errors to exit codes (2 for usage, 1 for
 * bad input or a failed run), printing one clear message and never a stack trace for expected
 * problems. Resolves once the command is done (and its threads, if any, have stopped).
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.stdout(MAIN_HELP);
    return command === undefined ? 2 : 0;
  }
  const run = COMMANDS[command];
  try {
    if (!run) throw new UsageError(`unknown command "${command}" (see allot --help)`);
    return await run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`allot: ${error.message}\n`);
      return 2;
    }
    if (error instanceof InputError) {
      io.stderr(`allot: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** The real process's io: standard streams and the file system. */
export function createProcessIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isStderrTty: process.stderr.isTTY === true,
    readText: (path) => readFileSync(path, "utf8"),
    writeText: (path, text) => writeFileSync(path, text),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), createProcessIo());
}
