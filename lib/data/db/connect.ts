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
export async function openDatabase(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<DatabaseHandle> {
  const configuredUrl = env.DATABASE_URL?.trim();
  if (configuredUrl) {
    return { url: configuredUrl, isEmbedded: false, stop: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres(env.PGLITE_DIR ?? DEFAULT_PGLITE_DIR);
  return { url: embedded.url, isEmbedded: true, stop: embedded.stop };
}
