// The one error shape and the one wrapper around every route handler:
// validation -> 422 with field issues, AppError -> its status, the database's own errors ->
// 503 (unreachable) or 409 (a lost race), anything else -> 500 with a generic message (the stack
// goes to the log only). The wrapper also writes the request's log line and its metric.
import type { NextResponse } from "next/server";
import { ZodError } from "zod";
import { toDatabaseAppError } from "../data/db/prisma-errors";
import { AppError, type FieldIssue } from "../errors";
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

/** Parses a JSON body, answering 400 (not 500) when it is not JSON. */
/**
 * The body as JSON, or `{}` when there is none: for routes whose every field is optional
 * (a cancel), so clients that send no body keep working.
 */
export async function readOptionalJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("bad_request", "The request body must be JSON.");
  }
}

export async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new AppError("bad_request", "The request body must be JSON.");
  }
}
