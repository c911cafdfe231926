// The bridge's and sync's way to the Allot server: JSON over HTTP with a bearer token
// (ALLOT_TOKEN), each failure turned into one AllotApiError that says what to fix. Every call
// says it comes from the SLURM bridge, so Allot refuses one aimed at a cluster it does not drive.
import { EXECUTOR_KIND_HEADER } from "../validation/executor";

/** A call to Allot that failed: unreachable, refused, or answered with an error. */
export class AllotApiError extends Error {
  constructor(
    message: string,
    /** The HTTP status, or null when the server could not be reached. */
    readonly status: number | null,
    /** Whether the answer was Allot's error shape, not a proxy's page for a server that is down. */
    readonly isAllotAnswer = status !== null,
  ) {
    super(message);
  }
}

export type AllotClient = {
  server: string;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
};

/** A client for `server` (e.g. http://allot:3000) that sends `token` on every call. */
export function createAllotClient(
  server: string,
  token: string,
  options: { timeoutMs?: number } = {},
): AllotClient {
  const base = server.replace(/\/+$/, "");
  const call = async <T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          [EXECUTOR_KIND_HEADER]: "slurm",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new AllotApiError(`cannot reach Allot at ${base} (${why})`, null);
    }
    const text = await response.text();
    if (!response.ok) {
      let message: string | undefined;
      try {
        message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message as string;
      } catch {
        // not JSON: a proxy's page, say
      }
      const isAllotAnswer = typeof message === "string";
      throw new AllotApiError(
        `Allot answered ${response.status} to ${method} ${path}: ${isAllotAnswer ? message : text.slice(0, 300)}`,
        response.status,
        isAllotAnswer,
      );
    }
    return JSON.parse(text) as T;
  };
  return {
    server: base,
    get: (path) => call("GET", path),
    post: (path, body) => call("POST", path, body),
  };
}
