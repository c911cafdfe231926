// The browser's one way to call /api/v1: every answer is read here, and every failure, whatever
// the route, becomes one ApiError with the fields of the API's error shape
// (lib/api/error-response.ts), so that a form shows any route's error the same way.
import type { ErrorBody } from "@/lib/api/error-response";
import type { ErrorCode, FieldIssue } from "@/lib/errors";

export class ApiError extends Error {
  constructor(
    /** The HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly code: ErrorCode | "network",
    message: string,
    readonly issues: FieldIssue[] = [],
    /** The error's details (e.g. the current state on a 409), or a body not in the error shape. */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** A write's answer: mutations show their failure inline, so they get it as a value. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

const JSON_TYPE = "application/json";

/** Reads a failed answer: the error shape's fields, or a plain sentence with the status. */
export async function readApiError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => undefined)) as Partial<ErrorBody> | undefined;
  const error = body?.error;
  if (!error) {
    return new ApiError(
      response.status,
      response.status === 503 ? "unavailable" : "internal",
      `The server answered ${response.status}.`,
      [],
      body,
    );
  }
  return new ApiError(
    response.status,
    error.code,
    error.message,
    error.issues ?? [],
    error.details,
  );
}

async function send(method: string, path: string, body: unknown, accept: string) {
  try {
    return await fetch(path, {
      method,
      cache: "no-store",
      // Every API write from the browser is JSON (proxy.ts refuses others).
      headers: body === undefined ? { accept } : { accept, "content-type": JSON_TYPE },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", "The server could not be reached.");
  }
}

async function sendOk(method: string, path: string, body: unknown, accept = JSON_TYPE) {
  const response = await send(method, path, body, accept);
  if (!response.ok) throw await readApiError(response);
  return response;
}

/** A read for react-query: the JSON answer, or a thrown ApiError. */
export async function getJson<T>(path: string): Promise<T> {
  return (await (await sendOk("GET", path, undefined)).json()) as T;
}

/** A write (or any call whose failure the caller shows): never throws. */
export async function callApi<T>(
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  try {
    return { ok: true, value: (await (await sendOk(method, path, body)).json()) as T };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error };
    return { ok: false, error: new ApiError(0, "internal", "The answer could not be read.") };
  }
}

/**
 * Stored gzip JSON as stored (lib/api/gzip-json.ts), unzipped here: the server neither unzips nor
 * compresses it again. A body stored by an older worker as several gzip members, which
 * DecompressionStream refuses, is asked for again as JSON.
 */
export async function getGzipJson<T>(path: string): Promise<T> {
  const response = await sendOk("GET", path, undefined, "application/gzip, application/json;q=0.9");
  if (response.headers.get("content-type") !== "application/gzip" || !response.body) {
    return (await response.json()) as T;
  }
  try {
    return (await new Response(
      response.body.pipeThrough(new DecompressionStream("gzip")),
    ).json()) as T;
  } catch {
    return getJson<T>(path);
  }
}
