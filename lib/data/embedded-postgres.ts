// The laptop default: PGlite (Postgres compiled to WebAssembly) served over the
// Postgres wire protocol on a free local port, so the app's `pg` + Prisma code
// runs unchanged (docs/decisions/003-embedded-database.md).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export type EmbeddedPostgres = {
  /** A `postgresql://` URL for `pg` and Prisma. */
  url: string;
  stop: () => Promise<void>;
};

/**
 * Starts PGlite with its data in `dataDir` (created if missing; `memory://` keeps
 * nothing) and serves it on 127.0.0.1 on a free port.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const isInMemory = dataDir.startsWith("memory://");
  if (!isInMemory) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const db = await PGlite.create(isInMemory ? dataDir : path.resolve(dataDir));
  // The pool's connections share one PGlite; the server serialises their queries
  // and keeps a transaction's queries together.
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 64 });
  await server.start();
  const url = `postgresql://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  return {
    url,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
