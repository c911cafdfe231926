// The one error shape and the one wrapper around every route handler:
// validation -> 422 with field issues, AppError -> its status, the database's own errors ->
// 503 (unreachable) or 409 (a lost race), anything else -> 500.
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { toDatabaseAppError } from "../data/prisma-errors";
import { AppError, ERROR_STATUS, type ErrorCode, type FieldIssue } from "../errors";

export type ErrorBody = {
  error: { code: ErrorCode; message: string; issues?: FieldIssue[]; details?: unknown };
};

export function errorResponse(
  code: ErrorCode,
  message: string,
  issues?: FieldIssue[],
  details?: unknown,
  headers?: HeadersInit,
): NextResponse<ErrorBody> {
  const body: ErrorBody = { error: { code, message } };
  if (issues?.length) body.error.issues = issues;
  if (details !== undefined) body.error.details = details;
  return NextResponse.json(body, { status: ERROR_STATUS[code], headers });
}

export function zodIssues(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

type Handler<Context> = (request: Request, context: Context) => Promise<Response>;

/** Wraps a route handler so that every failure leaves as the same JSON shape. */
export function apiRoute<Context>(handler: Handler<Context>): Handler<Context> {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

export function toErrorResponse(error: unknown): NextResponse<ErrorBody> {
  if (error instanceof ZodError) {
    return errorResponse("validation_failed", "The request has invalid fields.", zodIssues(error));
  }
  if (error instanceof AppError) {
    return errorResponse(error.code, error.message, error.issues, error.details);
  }
  const databaseError = toDatabaseAppError(error);
  if (databaseError) {
    console.error(`${databaseError.code}: ${String(error)}`);
    const headers = databaseError.status === 503 ? { "Retry-After": "30" } : undefined;
    return errorResponse(databaseError.code, databaseError.message, undefined, undefined, headers);
  }
  console.error(error);
  return errorResponse("internal", "Something went wrong on the server; it has been logged.");
}

/** Parses a JSON body, answering 400 (not 500) when it is not JSON. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new AppError("bad_request", "The request body must be JSON.");
  }
}
