// Prisma's and the driver's errors as application errors, in one place: the API's wrapper and
// the pages' error handling call this. A database that cannot be reached is a 503 whose code
// says so (never a 500 "internal"); a lost race on a unique or foreign key is a 409.
import "server-only";
import { AppError } from "../../errors";
import { Prisma } from "../../generated/prisma/client";

/** Prisma's codes for a database that is down, unreachable or out of connections. */
const UNREACHABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028"]);
/** The driver adapter's kinds of the same (PrismaPg, in `meta.driverAdapterError.cause`). */
const UNREACHABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TlsConnectionError",
]);
/**
 * PostgreSQL's own codes for a server that is shutting down, restarting or refusing new
 * connections for now (57P01-57P03), and the connection exceptions of class 08 that mean the
 * server could not be reached or the connection broke. Not 08P01 (a protocol violation: a
 * client's bug) nor 08007 (a commit's outcome unknown: a retry could repeat a write). The
 * adapter passes them on as kind "postgres" with the code.
 */
const UNREACHABLE_SQLSTATES = new Set([
  // A database not accepting connections (ALTER DATABASE ... ALLOW_CONNECTIONS false).
  "55000",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);
/** Broken connections a retry must not follow: a client's bug, a commit's outcome unknown. */
const NOT_RETRYABLE_SQLSTATES = new Set(["08P01", "08007"]);
/** Node's socket errors, for code that reaches `pg` without Prisma. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND"]);

export const DATABASE_UNAVAILABLE_MESSAGE =
  "The database cannot be reached right now. Nothing was changed; try again in a minute.";

/** True when `error` says the database is down or unreachable (not that a query was wrong). */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (UNREACHABLE_CODES.has(error.code)) return true;
    const cause = adapterErrorCause(error.meta);
    if (typeof cause?.kind === "string" && UNREACHABLE_KINDS.has(cause.kind)) return true;
    if (cause?.kind !== "postgres") return false;
    const sqlState = typeof cause.code === "string" ? cause.code : "";
    if (NOT_RETRYABLE_SQLSTATES.has(sqlState)) return false;
    // FATAL ends the session: the server refused or dropped the connection, whatever the query
    // was. The severity is in the server's language (lc_messages); the codes below do not depend
    // on it.
    if (cause.severity === "FATAL" || cause.severity === "PANIC") return true;
    return UNREACHABLE_SQLSTATES.has(sqlState);
  }
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  if (error instanceof Error && "code" in error && typeof error.code === "string") {
    return SOCKET_CODES.has(error.code);
  }
  if (error instanceof Error && error.message === "Connection terminated unexpectedly") return true;
  return false;
}

/** The driver adapter's own error (PrismaPg): its `kind`, and PostgreSQL's code when it has one. */
function adapterErrorCause(
  meta: Record<string, unknown> | undefined,
): { kind?: unknown; code?: unknown; severity?: unknown } | undefined {
  const adapterError = meta?.driverAdapterError as
    { cause?: { kind?: unknown; code?: unknown; severity?: unknown } } | undefined;
  return adapterError?.cause;
}

/**
 * The application error a database error stands for, or null when it is a bug (a 500):
 * unreachable -> 503 `database_unavailable`; unique or foreign key lost to a concurrent
 * change -> 409 `conflict`; a record gone meanwhile -> 404; a value the database cannot store
 * -> 422 (a backstop: the schemas in lib/validation refuse those first, naming the field).
 */
export function toDatabaseAppError(error: unknown): AppError | null {
  if (isDatabaseUnreachable(error)) {
    return new AppError("database_unavailable", DATABASE_UNAVAILABLE_MESSAGE);
  }
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return null;
  switch (error.code) {
    case "P2002":
      return new AppError(
        "conflict",
        "Someone else made the same change at the same moment; reload and check.",
      );
    case "P2003":
      return new AppError(
        "conflict",
        "The budget or job this refers to was changed or removed meanwhile; reload and try again.",
      );
    case "P2025":
      return new AppError("not_found", "The record was removed meanwhile; reload the page.");
    case "P2034":
      return new AppError("conflict", "A concurrent change got in the way; try again.");
    case "P2000":
    case "P2007":
    case "P2020":
    case "P2033":
      return new AppError(
        "validation_failed",
        "A value is too long, too large or not of a kind the database can store.",
      );
    default:
      return null;
  }
}
