// What proxy.ts refuses before a request reaches a route or a server action
// (docs/decisions/080-csrf-and-demo-mode.md): cross-site writes signed in by the browser's
// cookie, API writes that are not JSON, and paths whose segments do not decode. Pure: headers
// and the app's origin are arguments.
import type { ErrorCode } from "../errors";

/** `Authorization: Bearer <token>`, as lib/auth.ts reads it; such calls never use the cookie. */
export const BEARER_PATTERN = /^Bearer\s+(\S+)$/i;

/** Methods that change nothing: never refused here. */
const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

export type PathKind = "api" | "auth" | "page";

export type Refusal = { code: ErrorCode; message: string };

export type WriteRequest = {
  method: string;
  pathname: string;
  headers: { get(name: string): string | null };
};

/**
 * Which part of the app a path belongs to: the JSON API, next-auth's own routes (they check
 * their own CSRF token and take the identity provider's cross-site callbacks) or a page,
 * where a POST is a server action.
 */
export function classifyPath(pathname: string): PathKind {
  if (pathname === "/api/v1" || pathname.startsWith("/api/v1/")) return "api";
  if (pathname === "/api/auth" || pathname.startsWith("/api/auth/")) return "auth";
  return "page";
}

/** A header value short enough to quote back in an error message. */
function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

export type BadSegment = { segment: string; problem: string };

/** The problem of a segment that decodes to a NUL, which PostgreSQL refuses in text. */
export const NUL_PROBLEM = "decodes to a NUL character";

/** The request header in which the proxy passes the page asked for (path and query) on. */
export const REQUESTED_PATH_HEADER = "x-allot-requested-path";

/**
 * Where sign-in may lead back to: a path of this app (`/review?month=2026-11`), never another
 * site (`//evil.example`, `/\\evil.example`, `https://...`); "/" otherwise.
 *
 * @example safeReturnPath("//evil.example") // "/"
 */
export function safeReturnPath(path: unknown): string {
  // Browsers drop tabs and newlines from URLs and read a backslash as "/": "/<tab>/evil.example"
  // is another site to them, so any of those refuses the path outright.
  if (typeof path !== "string" || !path.startsWith("/") || /[\s\\\u0000-\u001f\u007f]/.test(path)) {
    return "/";
  }
  const base = "http://allot.invalid";
  if (!URL.canParse(path, base)) return "/";
  const url = new URL(path, base);
  return url.origin === base ? url.pathname + url.search + url.hash : "/";
}

/**
 * The first segment of `pathname` (as sent, still percent-encoded) that does not decode to
 * text a route can use: malformed percent-encoding (`%E0%A4%A`, `%zz`), where Next would
 * answer a plain-text 500, or a NUL (`%00`), which PostgreSQL refuses in text. Null when
 * every segment is fine.
 *
 * @example findBadSegment("/api/v1/jobs/%00/cancel") // { segment: "%00", problem: "decodes to a NUL character" }
 */
export function findBadSegment(pathname: string): BadSegment | null {
  for (const segment of pathname.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return { segment, problem: "is not valid percent-encoding" };
    }
    if (decoded.includes("\u0000")) return { segment, problem: NUL_PROBLEM };
  }
  return null;
}

function isJsonType(contentType: string | null): boolean {
  const essence = contentType?.split(";")[0]?.trim().toLowerCase();
  return essence === "application/json";
}

/**
 * Null when `contentType` is `application/json`, else the 415 `unsupported_media_type` refusal
 * that names what was sent. The one rule for an API body, whoever signs the request: checkWrite
 * applies it to cookie-signed writes, lib/api/respond.ts to every body a route reads.
 *
 * @example checkJsonType("text/plain") // { code: "unsupported_media_type", message: "Send the request as JSON ..." }
 */
export function checkJsonType(contentType: string | null): Refusal | null {
  if (isJsonType(contentType)) return null;
  return {
    code: "unsupported_media_type",
    message: `Send the request as JSON with 'Content-Type: application/json'; it was ${contentType === null ? "sent with none" : quote(contentType)}.`,
  };
}

/**
 * Whether a write may proceed, or why not. Safe methods, next-auth's routes and API calls
 * with a bearer token always may (a bearer call's body is checked where a route reads it, by
 * the same rule: {@link checkJsonType}). Every other write is one a browser could make with the
 * signed-in person's cookie, so it must come from the app's own origin:
 * - `Origin` must be present and equal `appOrigin` (browsers send it on every cross-origin
 *   and same-origin POST, PUT, PATCH and DELETE, and on server actions);
 * - `Sec-Fetch-Site`, when the browser sends it, must be `same-origin`;
 * - on the API, `Content-Type` must be `application/json`, body or not, which a cross-site
 *   form or a no-cors fetch cannot send.
 * A refusal is 403 `forbidden` or 415 `unsupported_media_type`; an API write with neither a
 * cookie nor an Origin (a script without its token) is 401 `unauthorized`.
 *
 * @example checkWrite({ method: "POST", pathname: "/api/v1/jobs", headers }, "https://allot.lab.example")
 */
export function checkWrite(request: WriteRequest, appOrigin: string): Refusal | null {
  const method = request.method.toUpperCase();
  if (SAFE_METHODS.has(method)) return null;
  const kind = classifyPath(request.pathname);
  if (kind === "auth") return null;
  const { headers } = request;
  if (kind === "api" && BEARER_PATTERN.test(headers.get("authorization") ?? "")) return null;

  const what = kind === "api" ? `A ${method} to the API signed in by cookie` : "A server action";
  const origin = headers.get("origin");
  if (kind === "api" && origin === null && headers.get("cookie") === null) {
    // Neither a browser nor signed in: a script that forgot its token.
    return { code: "unauthorized", message: "Sign in, or send 'Authorization: Bearer <token>'." };
  }
  if (origin === null) {
    return {
      code: "forbidden",
      message:
        `${what} must carry an Origin header, as browsers send; it has none. ` +
        "Scripts and executors send 'Authorization: Bearer <token>' instead.",
    };
  }
  if (origin.toLowerCase() !== appOrigin.toLowerCase()) {
    return {
      code: "forbidden",
      message: `Cross-origin request refused: Origin ${quote(origin)} is not this app's origin ${quote(appOrigin)}.`,
    };
  }
  const site = headers.get("sec-fetch-site");
  if (site !== null && site.toLowerCase() !== "same-origin") {
    return {
      code: "forbidden",
      message: `Cross-site request refused: Sec-Fetch-Site is ${quote(site)}, not "same-origin".`,
    };
  }
  return kind === "api" ? checkJsonType(headers.get("content-type")) : null;
}
