// What every live command shares: the connection flags and help, the client, the clusters to
// show, and JSON output.
import { createApiClient, type ApiClient } from "./api-client";
import { clusterListAnswer } from "./api-answers";
import { resolveConnection, type LiveDeps } from "./api-config";
import type { ParsedArgs } from "./args";
import { UsageError, type CliIo } from "./io";

/** Flags every live command takes (with parseCommandArgs). */
export const LIVE_OPTIONS = {
  server: { type: "string" },
  json: { type: "boolean" },
} as const;

/** The end of every live command's --help. */
export const LIVE_HELP = `  --server <url>     the Allot server (else ALLOT_SERVER, else "server" in the config file)
  --json             print the server's answer as JSON
  -h, --help         show this help

Environment: ALLOT_SERVER, ALLOT_TOKEN (a personal token, made on the server's API tokens
page). Config file: $XDG_CONFIG_HOME/allot/config.json or ~/.config/allot/config.json,
{ "server": "...", "token": "..." }, refused when others may read it (chmod 600).
Exit codes: 0 ok, 1 the server refused the request (not found, conflict, its own error),
2 bad usage or input, 3 server unreachable, 4 no token, token refused or not allowed.
`;

/** A client for the server and token the flags, the environment and the config file name. */
export function connect(deps: LiveDeps, args: ParsedArgs): ApiClient {
  return createApiClient(resolveConnection(deps, args.values.server as string | undefined));
}

/** `--cluster c` (checked: a usage error naming the clusters there are), else every cluster. */
export async function clusterNames(client: ApiClient, flag: unknown): Promise<string[]> {
  const { clusters } = await client.get("/api/v1/clusters", clusterListAnswer);
  const names = clusters.map((cluster) => cluster.name);
  if (typeof flag !== "string") return names;
  if (!names.includes(flag)) {
    const known = names.length > 0 ? `clusters: ${names.join(", ")}` : "no clusters yet";
    throw new UsageError(`--cluster ${flag}: no such cluster (${known})`);
  }
  return [flag];
}

/** What squeue and sshare print for a server with no cluster yet, rather than nothing. */
export const NO_CLUSTERS_LINE =
  "This server has no clusters yet: an admin registers one (allot slurm register, docs/slurm.md).\n";

/** The path of a cluster's queue. */
export function queuePath(cluster: string): string {
  return `/api/v1/clusters/${encodeURIComponent(cluster)}/queue`;
}

/** The path of a job. */
export function jobPath(jobId: string): string {
  return `/api/v1/jobs/${encodeURIComponent(jobId)}`;
}

/** Prints a value as indented JSON. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}
