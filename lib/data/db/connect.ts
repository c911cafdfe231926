// One way to get a database for every entry point (server, db scripts, tests):
// DATABASE_URL when set, else the embedded PGlite under PGLITE_DIR or .data/pglite.
import path from "node:path";
import { startEmbeddedPostgres } from "./embedded-postgres";

export type DatabaseHandle = {
  url: string;
  isEmbedded: boolean;
  stop: () => Promise<void>;
};

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
export const DEFAULT_PGLITE_DIR = path.join(ROOT, ".data", "pglite");

/** Resolves the database the process should use, starting the embedded one if needed. */
/**
 * DATABASE_URL, trimmed; undefined when unset (the embedded database). Throws, naming the
 * variable, when it is not a PostgreSQL URL: Prisma's own message for `notaurl` or a `mysql://`
 * URL names no variable ("Can't reach database server at `base`").
 */
export function databaseUrlOf(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  const url = env.DATABASE_URL?.trim();
  if (!url) return undefined;
  if (!/^postgres(ql)?:\/\/./i.test(url) || !URL.canParse(url)) {
    // Everything between the user's name and the host's "@" (the last one) is the password,
    // whatever it holds: a base64 password has "/" and "+".
    const shown = url.replace(/^((?:[a-z][\w+.-]*:\/\/)?[^:@/]*):.*@/i, "$1:***@");
    throw new Error(
      `DATABASE_URL must be a PostgreSQL URL, postgresql://user@host:5432/database; got "${shown}".`,
    );
  }
  return url;
}

export async function openDatabase(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<DatabaseHandle> {
  const configuredUrl = databaseUrlOf(env);
  if (configuredUrl) {
    return { url: configuredUrl, isEmbedded: false, stop: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres(env.PGLITE_DIR ?? DEFAULT_PGLITE_DIR);
  return { url: embedded.url, isEmbedded: true, stop: embedded.stop };
}
