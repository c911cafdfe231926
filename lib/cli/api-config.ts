// Where the live commands find the server and the personal token: a flag, then the environment
// (ALLOT_SERVER, ALLOT_TOKEN), then ~/.config/allot/config.json (or $XDG_CONFIG_HOME/allot/).
// A config file that holds a token must be readable by its owner only, as ssh insists for keys.
import path from "node:path";
import { z } from "zod";
import { UsageError } from "./io";

/** What the live commands reach outside the process, apart from the network. */
export type LiveDeps = {
  env: Record<string, string | undefined>;
  homeDir: string;
  /** The file's text and permission bits, or null when there is no such file. */
  readConfigFile(path: string): { text: string; mode: number } | null;
};

/** The server and token to use, and where each came from (for messages). */
export type Connection = {
  server: string;
  serverSource: string;
  token: string | null;
  tokenSource: string | null;
  configPath: string;
};

const configSchema = z.strictObject({
  server: z.string().min(1).optional(),
  token: z.string().min(1).optional(),
});

/** `$XDG_CONFIG_HOME/allot/config.json`, else `~/.config/allot/config.json`. */
export function configPathOf(deps: LiveDeps): string {
  const base = deps.env.XDG_CONFIG_HOME?.trim() || path.join(deps.homeDir, ".config");
  return path.join(base, "allot", "config.json");
}

function readConfig(deps: LiveDeps, configPath: string): z.infer<typeof configSchema> {
  const file = deps.readConfigFile(configPath);
  if (file === null) return {};
  let json: unknown;
  try {
    json = JSON.parse(file.text);
  } catch {
    throw new UsageError(`${configPath}: not JSON (expected { "server": "...", "token": "..." })`);
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `"${issue.path.join(".")}": ` : "";
    throw new UsageError(`${configPath}: ${where}${issue?.message ?? "invalid"}`);
  }
  // Group or others may read or write it: the token would be theirs too.
  if (parsed.data.token !== undefined && (file.mode & 0o077) !== 0) {
    const mode = (file.mode & 0o777).toString(8);
    throw new UsageError(
      `${configPath} holds a token but others may read it (mode ${mode}): run chmod 600 ${configPath}`,
    );
  }
  return parsed.data;
}

/** A server URL as given, checked and without a trailing slash, or a {@link UsageError}. */
export function normaliseServer(text: string, source: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${source}: "${text}" is not a URL (e.g. https://allot.example.org)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`${source}: "${text}" must start with http:// or https://`);
  }
  return text.trim().replace(/\/+$/, "");
}

/**
 * The server and token, flag > environment > config file for each; the file is read only when
 * the flag and the environment leave one of them out.
 *
 * @example resolveConnection(deps, undefined) // { server: "http://allot:3000", serverSource: "ALLOT_SERVER", ... }
 */
export function resolveConnection(deps: LiveDeps, serverFlag: string | undefined): Connection {
  const configPath = configPathOf(deps);
  const envServer = deps.env.ALLOT_SERVER?.trim() || undefined;
  const envToken = deps.env.ALLOT_TOKEN?.trim() || undefined;
  const given = serverFlag ?? envServer;
  const config = given !== undefined && envToken !== undefined ? {} : readConfig(deps, configPath);
  const [serverText, serverSource] =
    serverFlag !== undefined
      ? [serverFlag, "--server"]
      : envServer !== undefined
        ? [envServer, "ALLOT_SERVER"]
        : config.server !== undefined
          ? [config.server, `"server" in ${configPath}`]
          : [undefined, ""];
  if (serverText === undefined) {
    throw new UsageError(
      `no server: pass --server <url>, set ALLOT_SERVER, or put "server" in ${configPath}`,
    );
  }
  const token = envToken ?? (config.token?.trim() || null);
  return {
    server: normaliseServer(serverText, serverSource),
    serverSource,
    token,
    tokenSource: envToken ? "ALLOT_TOKEN" : token ? `"token" in ${configPath}` : null,
    configPath,
  };
}
