// `allot slurm <sub-command>`: the SLURM bridge and its helpers (docs/slurm.md).
import { runBridgeCommand, runRegisterCommand } from "../slurm/bridge-command";
import { UsageError, type CliIo } from "./io";

export const SLURM_HELP = `Usage: allot slurm <sub-command> [options]

Connects a SLURM cluster to Allot (docs/slurm.md).

Sub-commands:
  register        register this SLURM cluster in Allot, its nodes read from sinfo
  bridge          run the bridge beside slurmctld: Allot schedules, SLURM runs

Run allot slurm <sub-command> --help for its options.
`;

const SUB_COMMANDS: Record<string, (argv: string[], io: CliIo) => number | Promise<number>> = {
  register: (argv, io) => runRegisterCommand(argv, io),
  bridge: (argv, io) => runBridgeCommand(argv, io),
};

/** `allot slurm`: dispatches to a sub-command; returns the exit code. */
export async function runSlurmCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    io.stdout(SLURM_HELP);
    return sub === undefined ? 2 : 0;
  }
  const run = SUB_COMMANDS[sub];
  if (!run) throw new UsageError(`slurm: unknown sub-command "${sub}" (see allot slurm --help)`);
  return run(rest, io);
}
