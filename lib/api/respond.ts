// The one error shape and the one wrapper around every route handler:
// validation -> 422 with field issues, AppError -> its status, the database's own errors ->
// 503 (unreachable) or 409 (a lost race), anything else -> 500 with a generic message (the stack
// goes to the log only). The wrapper also writes the request's log line and its metric.
import type { NextResponse } from "next/server";
import { ZodError } from "zod";
import { toDatabaseAppError } from "../data/db/prisma-errors";
import { AppError, type FieldIssue } from "../errors";
import { checkJsonType } from "../guards/request-guard";
import { getLogger } from "../log/logger";
import { withRequestCaller } from "../log/request-context";
import { errorResponse, type ErrorBody } from "./error-response";
import { recordRequest, requestIdOf } from "./request-record";
import { routePattern } from "./routes";

export { errorResponse, type ErrorBody };

export function zodIssues(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

type Handler<Context> = (request: Request, context: Context) => Promise<Response>;

/**
 * Wraps a route handler so that every failure leaves as the same JSON shape, and every request
 * leaves one log line (id, caller, route pattern, method, status, duration) and one observation
 * of `allot_http_request_duration_seconds`. `route` names a route outside API_ROUTES.
 */
export function apiRoute<Context>(
  handler: Handler<Context>,
  options: { route?: string } = {},
): Handler<Context> {
  return async (request, context) => {
    const startedMs = performance.now();
    const requestId = requestIdOf(request.headers);
    const { caller, result: response } = await withRequestCaller(async () => {
      try {
        return await handler(request, context);
      } catch (error) {
        return toErrorResponse(error, requestId);
      }
    });
    const pathname = new URL(request.url).pathname;
    recordRequest({
      requestId,
      method: request.method,
      route: options.route ?? routePattern(pathname),
      pathname,
      status: response.status,
      durationMs: performance.now() - startedMs,
      caller,
    });
    try {
      response.headers.set("X-Request-Id", requestId);
    } catch {
      // A response with immutable headers (a proxied fetch) keeps them as they are.
    }
    return response;
  };
}

export function toErrorResponse(error: unknown, requestId?: string): NextResponse<ErrorBody> {
  if (error instanceof ZodError) {
    return errorResponse("validation_failed", "The request has invalid fields.", zodIssues(error));
  }
  if (error instanceof AppError) {
    return errorResponse(error.code, error.message, error.issues, error.details);
  }
  const databaseError = toDatabaseAppError(error);
  if (databaseError) {
    getLogger().error({ requestId, code: databaseError.code, err: error }, "database error");
    const headers = databaseError.status === 503 ? { "Retry-After": "30" } : undefined;
    return errorResponse(databaseError.code, databaseError.message, undefined, undefined, headers);
  }
  getLogger().error({ requestId, err: error }, "unexpected error");
  return errorResponse("internal", "Something went wrong on the server; it has been logged.");
}

/** The most a JSON body may weigh unless a route allows more: no budget edit comes near it. */
export const MAX_JSON_BYTES = 1024 * 1024;

export type BodyLimit = { maxBytes?: number };

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    "payload_too_large",
    `The request body is larger than this route takes (${formatBytes(maxBytes)}).`,
  );
}

/**
 * The body as text, refused with 413 past `maxBytes`: by its Content-Length when it declares
 * one, else while it streams in, so an oversized body is never held in memory whole.
 */
async function readText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    total += read.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(read.value);
  }
  // As Request.json() decodes: UTF-8, a leading byte order mark dropped.
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * 415 unless the body is declared `application/json`, whoever signs the request: proxy.ts
 * refuses cookie-signed writes so before they get here, bearer calls are refused here.
 */
function assertJsonType(request: Request): void {
  const refusal = checkJsonType(request.headers.get("content-type"));
  if (refusal) throw new AppError(refusal.code, refusal.message);
}

/**
 * The body as JSON, or `{}` when there is none (whatever its type): for routes whose every
 * field is optional (a cancel), so clients that send no body keep working.
 */
export async function readOptionalJson(
  request: Request,
  { maxBytes = MAX_JSON_BYTES }: BodyLimit = {},
): Promise<unknown> {
  const text = await readText(request, maxBytes);
  if (text.trim() === "") return {};
  assertJsonType(request);
  return parseJson(text);
}

/**
 * Parses a JSON body: 415 when it is not declared JSON, 400 (not 500) when it is not JSON, 413
 * past `maxBytes`.
 */
export async function readJson(
  request: Request,
  { maxBytes = MAX_JSON_BYTES }: BodyLimit = {},
): Promise<unknown> {
  assertJsonType(request);
  return parseJson(await readText(request, maxBytes));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("bad_request", "The request body must be JSON.");
  }
}
