// The live commands' one way to the API: JSON over HTTP with the personal token, each answer
// parsed with the zod schema the caller reads, each failure turned into the error that carries
// its exit code (lib/cli/api-errors.ts) and a message that says what to do.
import type { z } from "zod";
import type { Connection } from "./api-config";
import {
  ApiRequestError,
  findTokenProblem,
  ServerUnreachableError,
  TokenRefusedError,
  type ApiIssue,
} from "./api-errors";

/** How long one request may take before the server counts as unreachable. */
const REQUEST_TIMEOUT_MS = 30_000;

export type ApiClient = {
  connection: Connection;
  get<T>(path: string, schema: z.ZodType<T>): Promise<T>;
  post<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T>;
};

type ErrorBody = { error: { code: string; message: string; issues?: ApiIssue[] } };

function isErrorBody(value: unknown): value is ErrorBody {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === "string" && typeof error.message === "string";
}

/** Where to make a token and where to put it. */
export function tokenAdvice(connection: Connection): string {
  return `make one on ${connection.server}/tokens (API tokens) and set ALLOT_TOKEN or "token" in ${connection.configPath}`;
}

function whyUnreachable(error: unknown): string {
  const name = (error as { name?: string }).name;
  if (name === "TimeoutError" || name === "AbortError") {
    return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === "ECONNREFUSED") return "connection refused";
  if (cause?.code === "ENOTFOUND" || cause?.code === "EAI_AGAIN") return "unknown host";
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

function unreachable(connection: Connection, why: string): ServerUnreachableError {
  return new ServerUnreachableError(
    `cannot reach the server at ${connection.server} (${why}; the URL is from ${connection.serverSource}). ` +
      `Is it up, and is the URL right? Set it with --server, ALLOT_SERVER or "server" in ${connection.configPath}`,
  );
}

function refusal(connection: Connection, status: number, message: string): Error {
  if (status === 401) {
    return new TokenRefusedError(
      `the server refused the token from ${connection.tokenSource ?? "nowhere"}: ${message} To get a new one, ${tokenAdvice(connection)}`,
    );
  }
  return new TokenRefusedError(`not allowed: ${message}`);
}

/**
 * A client of the server in `connection`, sending its token as `Bearer`; throws
 * {@link TokenRefusedError} on the first call when there is no token.
 *
 * @example await createApiClient(connection).get("/api/v1/me", meAnswer)
 */
export function createApiClient(connection: Connection): ApiClient {
  const call = async <T>(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    schema: z.ZodType<T>,
  ): Promise<T> => {
    if (connection.token === null) {
      throw new TokenRefusedError(`no token: ${tokenAdvice(connection)}`);
    }
    const tokenProblem = findTokenProblem(connection.token);
    if (tokenProblem) {
      throw new TokenRefusedError(
        `the token from ${connection.tokenSource} is malformed: ${tokenProblem}. To get a new one, ${tokenAdvice(connection)}`,
      );
    }
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${connection.server}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${connection.token}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await response.text();
    } catch (error) {
      throw unreachable(connection, whyUnreachable(error));
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const type = response.headers.get("content-type")?.split(";")[0] ?? "no content type";
      throw unreachable(connection, `HTTP ${response.status} with ${type}, not Allot's API`);
    }
    if (!response.ok) {
      if (!isErrorBody(json)) {
        throw unreachable(connection, `HTTP ${response.status} without Allot's error shape`);
      }
      const { code, message, issues } = json.error;
      if (response.status === 401 || response.status === 403) {
        throw refusal(connection, response.status, message);
      }
      throw new ApiRequestError(response.status, code, message, issues);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiRequestError(
        response.status,
        "unexpected_answer",
        `the answer to ${method} ${path} is not what this allot reads (${issue?.path.join(".") || "body"}: ${issue?.message}); are the server and this command line the same version?`,
      );
    }
    return parsed.data;
  };
  return {
    connection,
    get: (path, schema) => call("GET", path, undefined, schema),
    post: (path, body, schema) => call("POST", path, body, schema),
  };
}
