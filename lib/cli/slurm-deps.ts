// What the `allot slurm` commands reach outside the process: the environment, SLURM's own tools
// and an Allot server. Tests pass stand-ins; the CLI passes createSlurmDeps().
import { AllotApiError, createAllotClient, type AllotClient } from "../slurm/allot-client";
import { createSlurmRunner, findSlurmConfProblem, type SlurmRunner } from "../slurm/slurm-cli";
import { normaliseServer } from "./api-config";
import { requireString, type ParsedArgs } from "./args";
import { findTokenProblem, ServerUnreachableError, TokenRefusedError } from "./api-errors";
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

/** ALLOT_TOKEN, or exit 4 saying which token to set, as the live commands do without one. */
export function requireAllotToken(
  command: string,
  env: Record<string, string | undefined>,
  which: string,
): string {
  const token = env.ALLOT_TOKEN?.trim();
  if (!token) throw new TokenRefusedError(`${command}: set ALLOT_TOKEN to ${which}`);
  const problem = findTokenProblem(token);
  if (problem) throw new TokenRefusedError(`${command}: ALLOT_TOKEN is malformed: ${problem}`);
  return token;
}

/**
 * The command line's error for a call to Allot that failed, with every live command's exit
 * codes (docs/cli.md): 3 when it could not be reached, 4 when it refused the token (`refusedHint`
 * says which token it wants), else 1 with Allot's message; any other error as it is.
 */
export function allotCallError(error: unknown, refusedHint = ""): unknown {
  if (!(error instanceof AllotApiError)) return error;
  // Nothing answered, or a proxy answered for a server that is down (502 with its own page).
  if (!error.isAllotAnswer) return new ServerUnreachableError(error.message);
  if (error.status === 401 || error.status === 403) {
    return new TokenRefusedError(`${error.message}${refusedHint}`);
  }
  return new InputError(error.message);
}
