// Runs before every route and page (docs/decisions/080-csrf-and-demo-mode.md):
// - API paths whose segments do not decode get 400, unknown API paths 404, wrong methods 405
//   (on /metrics too, checked before the origin), in the API's JSON error shape (never Next's
//   plain-text 500, HTML 404 page or empty 405);
//   pages whose segments do not decode get the 404 page (a NUL reaches the page, which 404s);
// - writes signed in by the browser's cookie (API mutations, server actions) must come from
//   the app's own origin, and API mutations must be JSON (lib/guards/request-guard.ts).
// A refusal is seen by operations as a served request is: an X-Request-Id header, a `request`
// log line with the reason and a count in allot_http_request_duration_seconds. Next 16 runs the
// proxy in the server's own Node.js process, so the logger and the metrics are the routes' own.
import { NextResponse, type NextRequest } from "next/server";
import type { ErrorCode } from "./lib/errors";
import { errorResponse } from "./lib/api/error-response";
import { recordRequest, requestIdOf } from "./lib/api/request-record";
import {
  checkWrite,
  classifyPath,
  findBadSegment,
  NUL_PROBLEM,
  REQUESTED_PATH_HEADER,
} from "./lib/guards/request-guard";
import { allowedMethods, routePattern } from "./lib/api/routes";

/** A page path no route has: rewritten to, it renders the 404 page with its status. */
const UNDECODABLE_PAGE_PATH = "/undecodable-path";

/** The app's public origin: NEXTAUTH_URL's (scripts/serve.ts always sets it), else the Host's. */
function appOrigin(request: NextRequest): string {
  const configured = process.env.NEXTAUTH_URL;
  return configured && URL.canParse(configured)
    ? new URL(configured).origin
    : request.nextUrl.origin;
}

/** The refusal's error response, with its request id, logged and counted. */
function refuse(
  request: NextRequest,
  startedMs: number,
  code: ErrorCode,
  message: string,
  headers?: HeadersInit,
): NextResponse {
  const requestId = requestIdOf(request.headers);
  const response = errorResponse(code, message, undefined, undefined, headers);
  response.headers.set("X-Request-Id", requestId);
  const { pathname } = request.nextUrl;
  recordRequest({
    requestId,
    method: request.method,
    route: routePattern(pathname),
    pathname,
    status: response.status,
    durationMs: performance.now() - startedMs,
    refusal: { code, reason: message },
  });
  return response;
}

export function proxy(request: NextRequest) {
  const startedMs = performance.now();
  const { pathname } = request.nextUrl;
  const isApi = classifyPath(pathname) === "api";
  const bad = findBadSegment(pathname);
  if (bad && isApi) {
    return refuse(
      request,
      startedMs,
      "bad_request",
      `The path segment "${bad.segment}" ${bad.problem}.`,
    );
  }
  // The method before the origin: a POST to GET /metrics is a wrong method, not a server action.
  const methods = allowedMethods(pathname);
  if (isApi && !methods) {
    return refuse(request, startedMs, "not_found", `No API route at ${pathname}.`);
  }
  if (methods && request.method !== "OPTIONS" && !methods.includes(request.method)) {
    return refuse(
      request,
      startedMs,
      "method_not_allowed",
      `${request.method} is not allowed on ${pathname}; use ${methods.join(", ")}.`,
      { Allow: methods.join(", ") },
    );
  }
  const refusal = checkWrite(
    { method: request.method, pathname, headers: request.headers },
    appOrigin(request),
  );
  if (refusal) return refuse(request, startedMs, refusal.code, refusal.message);
  if (bad && bad.problem !== NUL_PROBLEM) {
    // Next cannot route a page path that does not decode (a plain 500): show the 404 page.
    return NextResponse.rewrite(new URL(UNDECODABLE_PAGE_PATH, request.url));
  }
  // The page asked for, so that sign-in can lead back to it (app/(app)/layout.tsx).
  const headers = new Headers(request.headers);
  headers.set(REQUESTED_PATH_HEADER, pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Every path but static files and next-auth's routes: server actions are POSTs to page paths.
  matcher: "/((?!_next/static/|_next/image|favicon.ico|api/auth/).*)",
};
