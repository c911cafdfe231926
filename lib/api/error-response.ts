// The API's one error shape, apart from the route wrapper (lib/api/respond.ts) so that proxy.ts
// can answer with it without loading Prisma.
import { NextResponse } from "next/server";
import { ERROR_STATUS, type ErrorCode, type FieldIssue } from "../errors";

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
