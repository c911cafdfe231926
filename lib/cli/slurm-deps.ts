// What the `allot slurm` commands reach outside the process: the environment, SLURM's own tools
// and an Allot server. Tests pass stand-ins; the CLI passes createSlurmDeps().
import { createAllotClient, type AllotClient } from "../slurm/allot-client";
import { createSlurmRunner, findSlurmConfProblem, type SlurmRunner } from "../slurm/slurm-cli";
import { normaliseServer } from "./api-config";
import { requireString, type ParsedArgs } from "./args";
import { InputError, UsageError } from "./io";

/** What the SLURM commands reach outside the process. */
export type SlurmCommandDeps = {
  env: Record<string, string | undefined>;
  runSlurm: SlurmRunner;
  createClient: (server: string, token: string) => AllotClient;
};

/** The real process's environment, SLURM tools and HTTP client. */
export function createSlurmDeps(): SlurmCommandDeps {
  return {
    env: process.env,
    runSlurm: createSlurmRunner(),
    createClient: (server, token) => createAllotClient(server, token),
  };
}

/** Fails at once (exit 1) when SLURM_CONF is set but names no readable file. */
export function assertSlurmConf(env: Record<string, string | undefined>): void {
  const problem = findSlurmConfProblem(env);
  if (problem) throw new InputError(problem);
}

/**
 * `--server`, else ALLOT_SERVER, as a URL; a usage error naming where it came from otherwise: a
 * mistyped address is bad usage, found before SLURM's tools run, not a server that cannot be
 * reached. Not the person's config file: these commands run as root with a cluster's token.
 */
export function requireServer(
  command: string,
  args: ParsedArgs,
  env: Record<string, string | undefined>,
): string {
  if (typeof args.values.server === "string") {
    return normaliseServer(requireString(command, args, "server"), `${command}: --server`);
  }
  const fromEnv = env.ALLOT_SERVER?.trim();
  if (!fromEnv) throw new UsageError(`${command}: pass --server <url> or set ALLOT_SERVER`);
  return normaliseServer(fromEnv, `${command}: ALLOT_SERVER`);
}
