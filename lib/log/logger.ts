// The server's one structured logger (pino): one JSON line per event on stdout, level from
// LOG_LEVEL (default info). Secrets never reach a line: the paths below are redacted wherever
// they appear, and callers log a token's prefix (its first 12 characters, as stored), never the
// token. Kept on globalThis, as Next loads a module once per bundle (instrumentation, routes).
import pino, { type DestinationStream, type Logger } from "pino";

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Keys that may hold a secret, redacted at the top level and one or two levels down. */
const SECRET_KEYS = [
  "authorization",
  "cookie",
  "set-cookie",
  "token",
  "password",
  "secret",
  "clientSecret",
  "NEXTAUTH_SECRET",
  "OIDC_CLIENT_SECRET",
  "ALLOT_METRICS_TOKEN",
];

export const REDACT_PATHS = SECRET_KEYS.flatMap((key) => {
  const safe = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const join = (prefix: string) =>
    safe.startsWith("[") ? `${prefix}${safe}` : `${prefix}.${safe}`;
  return [safe, join("*"), join("*.*")];
});

/** LOG_LEVEL when it names a pino level, else info. */
export function logLevelOf(value: string | undefined): (typeof LOG_LEVELS)[number] {
  const level = value?.trim().toLowerCase();
  return LOG_LEVELS.find((known) => known === level) ?? "info";
}

/**
 * Throws when `LOG_LEVEL` is set to a level pino does not know (`verbose`): checked at start, so
 * that a typo does not quietly log at `info`.
 */
export function checkLogLevel(value: string | undefined): void {
  const level = value?.trim().toLowerCase();
  if (level && !LOG_LEVELS.some((known) => known === level)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}; got "${value}".`);
  }
}

/** A logger writing to `destination` (stdout by default) at `level`. */
export function createLogger(
  destination?: DestinationStream,
  level: string = logLevelOf(process.env.LOG_LEVEL),
): Logger {
  return pino(
    {
      level,
      base: { service: "allot" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

const store = globalThis as unknown as { allotLogger?: Logger };

/** The process's logger. */
export function getLogger(): Logger {
  store.allotLogger ??= createLogger();
  return store.allotLogger;
}

/** Points the process's logger at another destination (tests capture lines this way). */
export function setLogDestination(destination: DestinationStream, level?: string): Logger {
  store.allotLogger = createLogger(destination, level);
  return store.allotLogger;
}

/** Back to the default logger (stdout, LOG_LEVEL). */
export function resetLogger(): void {
  delete store.allotLogger;
}

/**
 * A token's first 12 characters (what the database keeps in the clear), for the log; never
 * more than half of it, so that a short unknown token sent by mistake is not logged whole.
 *
 * @example tokenPrefix("allot_c_Q2x9...") // "allot_c_Q2x9"
 */
export function tokenPrefix(token: string): string {
  return token.slice(0, Math.min(12, Math.floor(token.length / 2)));
}
