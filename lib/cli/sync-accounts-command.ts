// `allot slurm sync-accounts`: reads the wanted accounts from Allot and SLURM's current ones,
// plans with lib/slurm/sync-accounts.ts and runs the plan's sacctmgr commands one by one.
import { SlurmCommandError } from "../slurm/slurm-cli";
import {
  formatSacctmgrCommand,
  parseSlurmAccountState,
  planAccountSync,
  stateQueries,
  type WantedAccount,
} from "../slurm/sync-accounts";
import { parseCommandArgs, requireString } from "./args";
import { InputError, UsageError, type CliIo } from "./io";
import {
  allotCallError,
  assertSlurmConf,
  requireAllotToken,
  requireServer,
  type SlurmCommandDeps,
} from "./slurm-deps";

/** `allot slurm sync-accounts --help`. */
export const SYNC_ACCOUNTS_HELP = `Usage: allot slurm sync-accounts --cluster <name> --server <url> [--dry-run]

Writes Allot's budget tree into SLURM's accounts with sacctmgr, so that sbatch -A <leaf> works
for the leaf's members, sshare shows the same tree and weights, and SLURM itself refuses an
account Allot does not know (with AccountingStorageEnforce=associations).

  - one account per budget, named after its path ("language/lm-eval" -> "language.lm-eval",
    the root by its name), under its tree parent; the root's parent is SLURM's "root";
  - Fairshare = the budget's weight (scaled by 1000 in sibling groups with fractions);
  - each leaf's members as SLURM users (the part of their email before "@") with an
    association to the leaf's account;
  - Allot's accounts carry Organization=allot.

It reads SLURM's state first and runs only the commands that differ, so a second run changes
nothing. A renamed or moved budget has a new path, so a new account: it is added with its users
first, users' default accounts are moved to it, then the old account is deleted. An account
under the tree's root account (or marked Organization=allot) that no live budget maps to is
deleted, and so are users left with no association. sacctmgr refuses to delete an account or
user with running jobs: that command is reported, the others still run, and the exit code is 1;
run it again once the jobs are done. An account with a wanted name that Allot did not make is a
clash: nothing is changed until it is removed or marked.

Options:
  --cluster <name>  the Allot cluster this SLURM runs (the token must be its token, or an admin's)
  --server <url>    the Allot server, e.g. http://allot:3000 (default: ALLOT_SERVER)
  --dry-run         print the sacctmgr commands it would run, one per line, and change nothing
  -h, --help        show this help

Environment: ALLOT_TOKEN (a cluster token or an admin's personal token), SLURM_CONF.
Exit codes: 0 in sync, 1 a failed command or call (a clash, Allot's refusal), 2 bad usage,
3 Allot unreachable, 4 no token or Allot refused it.
`;

type AccountsResponse = { cluster: string; accounts: WantedAccount[] };

async function fetchWanted(deps: SlurmCommandDeps, server: string, cluster: string) {
  const token = requireAllotToken("slurm sync-accounts", deps.env, "a cluster or admin token");
  try {
    const client = deps.createClient(server, token);
    const body = await client.get<AccountsResponse>(
      `/api/v1/clusters/${encodeURIComponent(cluster)}/accounts`,
    );
    return body.accounts;
  } catch (error) {
    throw allotCallError(
      error,
      ` (ALLOT_TOKEN must be cluster "${cluster}"'s token or an admin's)`,
    );
  }
}

async function runSlurmTool(deps: SlurmCommandDeps, command: string, args: string[]) {
  try {
    return await deps.runSlurm(command, args);
  } catch (error) {
    if (!(error instanceof SlurmCommandError)) throw error;
    const hint = error.message.includes("not installed")
      ? " (install Debian's slurm-client, or put SLURM's tools on PATH)"
      : " (is SLURM_CONF set and slurmctld/slurmdbd up?)";
    throw new InputError(`${error.message}${hint}`);
  }
}

/** SLURM's ClusterName, from `scontrol show config`. */
async function readClusterName(deps: SlurmCommandDeps): Promise<string> {
  const config = await runSlurmTool(deps, "scontrol", ["show", "config"]);
  const name = /^ClusterName\s*=\s*(\S+)/m.exec(config)?.[1];
  if (!name) throw new InputError("scontrol show config names no ClusterName");
  return name;
}

/** `allot slurm sync-accounts`: returns the exit code. */
export async function runSyncAccountsCommand(
  argv: string[],
  io: CliIo,
  deps: SlurmCommandDeps,
): Promise<number> {
  const args = parseCommandArgs("slurm sync-accounts", argv, {
    cluster: { type: "string" },
    server: { type: "string" },
    "dry-run": { type: "boolean" },
  });
  if (args.values.help) {
    io.stdout(SYNC_ACCOUNTS_HELP);
    return 0;
  }
  if (args.positionals.length > 0) {
    throw new UsageError(`slurm sync-accounts: unexpected argument "${args.positionals[0]}"`);
  }
  const cluster = requireString("slurm sync-accounts", args, "cluster");
  const server = requireServer("slurm sync-accounts", args, deps.env);
  const isDryRun = args.values["dry-run"] === true;
  assertSlurmConf(deps.env);

  const wanted = await fetchWanted(deps, server, cluster);
  const slurmCluster = await readClusterName(deps);
  // One after the other: parallel sacctmgr calls can deadlock slurmdbd.
  const outputs: string[] = [];
  for (const query of stateQueries(slurmCluster)) {
    outputs.push(await runSlurmTool(deps, "sacctmgr", query));
  }
  const [accounts = "", assocs = "", users = ""] = outputs;
  const plan = planAccountSync(
    parseSlurmAccountState(accounts, assocs, users),
    wanted,
    slurmCluster,
  );
  if (plan.clashes.length > 0) {
    for (const clash of plan.clashes) io.stderr(`allot: ${clash}\n`);
    io.stderr("allot: nothing was changed\n");
    return 1;
  }
  if (plan.commands.length === 0) {
    io.stderr(
      `SLURM cluster ${slurmCluster} already matches the budget tree (${wanted.length} accounts): nothing to change.\n`,
    );
    return 0;
  }
  if (isDryRun) {
    for (const command of plan.commands) io.stdout(`${formatSacctmgrCommand(command)}\n`);
    io.stderr(`dry run: ${plan.commands.length} commands, nothing changed\n`);
    return 0;
  }
  let failures = 0;
  for (const command of plan.commands) {
    const line = formatSacctmgrCommand(command);
    try {
      await deps.runSlurm("sacctmgr", ["-i", ...command]);
      io.stdout(`${line}\n`);
    } catch (error) {
      if (!(error instanceof SlurmCommandError)) throw error;
      failures += 1;
      const why = error.stderr.trim().split("\n")[0]?.trim() || error.message;
      io.stderr(`allot: FAILED ${line}: ${why}\n`);
    }
  }
  const done = plan.commands.length - failures;
  io.stderr(
    `SLURM cluster ${slurmCluster}: ${done} of ${plan.commands.length} changes applied` +
      (failures > 0
        ? `, ${failures} failed (see above; run again once their jobs are done)\n`
        : "\n"),
  );
  return failures > 0 ? 1 : 0;
}
