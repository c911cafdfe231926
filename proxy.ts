// Answers API paths whose segments do not decode (400), unknown API paths (404) and wrong
// methods (405) with the API's JSON error shape (never Next's plain-text 500, its HTML 404 page
// or an empty 405).
import { NextResponse, type NextRequest } from "next/server";
import { errorResponse } from "./lib/api/respond";
import { findBadSegment } from "./lib/api/request-guard";
import { allowedMethods } from "./lib/api/routes";

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const bad = findBadSegment(pathname);
  if (bad) {
    return errorResponse("bad_request", `The path segment "${bad.segment}" ${bad.problem}.`);
  }
  const methods = allowedMethods(pathname);
  if (!methods) return errorResponse("not_found", `No API route at ${pathname}.`);
  if (request.method !== "OPTIONS" && !methods.includes(request.method)) {
    return errorResponse(
      "method_not_allowed",
      `${request.method} is not allowed on ${pathname}; use ${methods.join(", ")}.`,
      undefined,
      undefined,
      { Allow: methods.join(", ") },
    );
  }
  return NextResponse.next();
}

export const config = { matcher: "/api/v1/:path*" };
