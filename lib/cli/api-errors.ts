// What can go wrong when a live command calls the server, each with its own exit code so that
// scripts can tell a typo from a server that is down from a token that no longer works.

/** The command line's exit codes (allot --help and docs/cli.md list them). */
export const EXIT = {
  ok: 0,
  /** A bad input file, a failed run, or a request the server refused (not found, conflict). */
  failed: 1,
  /** Bad usage or input: a flag, an argument, the config file, a field the server refused. */
  usage: 2,
  /** The server could not be reached, or what answered is not Allot's API. */
  unreachable: 3,
  /** No token, or the server refused it (401) or refused its owner this action (403). */
  refused: 4,
} as const;

/** The server did not answer (connection refused, unknown host, timeout) or is not Allot. */
export class ServerUnreachableError extends Error {}

/** No token to send, or the server answered 401 or 403. */
export class TokenRefusedError extends Error {}

/** A field problem as the API names it (`gpus`, `events.3.runId`). */
export type ApiIssue = { path: string; message: string };

/** Any other error answer of the API, in its one shape `{ error: { code, message, issues? } }`. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: ApiIssue[] = [],
  ) {
    super(message);
  }
}

/** Visible ASCII: what tokens are made of, and what an HTTP header carries as it is. */
const TOKEN_PATTERN = /^[\x21-\x7e]+$/;

/**
 * Why `token` cannot be a token, or null. It never repeats the token (a secret): fetch's own
 * error for a bad header would print it whole.
 */
export function findTokenProblem(token: string): string | null {
  return TOKEN_PATTERN.test(token)
    ? null
    : "it holds a space, a line break or a character outside ASCII (a token is letters, digits, _ and -)";
}
