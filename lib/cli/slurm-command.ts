// `allot slurm <sub-command>`: the commands that connect Allot to a real SLURM cluster. They
// talk to an Allot server (ALLOT_TOKEN) and run SLURM's own tools, both through `deps`, so
// tests can point them at a server and a SLURM of their choosing.
import { runBridgeCommand, runRegisterCommand } from "./bridge-command";
import { UsageError, type CliIo } from "./io";
import { createSlurmDeps, type SlurmCommandDeps } from "./slurm-deps";
import { runSyncAccountsCommand } from "./sync-accounts-command";

export type SlurmSubCommand = (
  argv: string[],
  io: CliIo,
  deps: SlurmCommandDeps,
) => Promise<number>;

/** `allot slurm --help`. */
export const SLURM_HELP = `Usage: allot slurm <command> [options]

Connects Allot to a SLURM cluster (docs/slurm.md). Commands run SLURM's own tools (sacctmgr,
scontrol...) with this process's environment (SLURM_CONF) and call the Allot server with the
token in ALLOT_TOKEN.

Commands:
  register --cluster C --server URL --gpu-type T
                            register this SLURM cluster in Allot, its nodes read from sinfo
  sync-accounts --cluster C --server URL [--dry-run]
                            write the budget tree into SLURM's accounts (sacctmgr)
  bridge --cluster C --server URL
                            run the bridge beside slurmctld: Allot schedules, SLURM runs

Run allot slurm <command> --help for a command's options.
`;

const SUB_COMMANDS: Record<string, SlurmSubCommand> = {
  register: (argv, io, deps) => runRegisterCommand(argv, io, deps.env, deps.runSlurm),
  "sync-accounts": runSyncAccountsCommand,
  bridge: (argv, io, deps) => runBridgeCommand(argv, io, deps.env, deps.runSlurm),
};

/** `allot slurm`: dispatches to a sub-command and returns its exit code. */
export async function runSlurmCommand(
  argv: string[],
  io: CliIo,
  deps: SlurmCommandDeps = createSlurmDeps(),
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(SLURM_HELP);
    return name === undefined ? 2 : 0;
  }
  const run = SUB_COMMANDS[name];
  if (!run) throw new UsageError(`slurm: unknown command "${name}" (see allot slurm --help)`);
  return run(rest, io, deps);
}
