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
  keepExtendedQueriesTogether(server, db);
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

type QueryQueue = { db: unknown };
/** Extended-protocol messages: Parse, Bind, Describe, Execute, Close, Flush. Sync ('S') ends them. */
const EXTENDED = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);
/** A connection that went quiet mid-exchange (a client crash) stops holding the queue. */
const STALE_EXCHANGE_MS = 2000;

/**
 * pglite-socket 0.2.17 keeps a *transaction's* messages together, but interleaves the messages
 * of two connections' extended-protocol queries outside transactions (Parse of one, Bind of the
 * other: "bind message supplies 3 parameters, but prepared statement requires 2"). Its queue
 * keeps serving the last connection while the database reports a transaction, so we report one
 * from the first extended message of an exchange until its Sync.
 */
function keepExtendedQueriesTogether(server: PGLiteSocketServer, db: PGlite): void {
  const queue = (server as unknown as { queryQueue?: QueryQueue }).queryQueue;
  if (!queue) return;
  let isMidExchange = false;
  let lastMessageMs = 0;
  queue.db = {
    isInTransaction: () =>
      (isMidExchange && Date.now() - lastMessageMs < STALE_EXCHANGE_MS) || db.isInTransaction(),
    runExclusive: <T>(work: () => Promise<T>) => db.runExclusive(work),
    execProtocolRawStream: (
      message: Uint8Array,
      options: Parameters<PGlite["execProtocolRawStream"]>[1],
    ) => {
      isMidExchange = EXTENDED.has(message[0] ?? 0);
      lastMessageMs = Date.now();
      return db.execProtocolRawStream(message, options);
    },
    exec: (sql: string) => {
      isMidExchange = false;
      return db.isInTransaction() ? db.exec(sql) : Promise.resolve([]);
    },
  };
}
