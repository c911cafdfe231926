// What operations see of each HTTP request (docs/operations.md): its id, one `request` log line
// and one observation of `allot_http_request_duration_seconds`. apiRoute writes them for the
// requests a route handler answers, proxy.ts for the ones it refuses before any route runs.
// Apart from lib/api/respond.ts so that proxy.ts can use it without loading Prisma.
import { randomUUID } from "node:crypto";
import { getLogger } from "../log/logger";
import type { RequestCaller } from "../log/request-context";
import { getMetrics } from "../metrics/registry";

/**
 * Polled every few seconds by balancers, Prometheus and each SLURM bridge (its plan, every 2 s):
 * logged at debug while they succeed.
 */
const POLLED_ROUTES = new Set(["/api/v1/health", "/metrics", "/api/v1/clusters/:name/plan"]);

/** Methods counted under their own name; any other is counted as `OTHER`, bounding the series. */
const COUNTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The metric's `method` label: the method when it is a standard one, else `OTHER`. */
export function methodLabel(method: string): string {
  return COUNTED_METHODS.has(method) ? method : "OTHER";
}

/** A reverse proxy's request id when it is a sane token, else a new one. */
export function requestIdOf(headers: { get(name: string): string | null }): string {
  const given = headers.get("x-request-id");
  return given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

export type RequestRecord = {
  requestId: string;
  method: string;
  /** The route's pattern (`/api/v1/jobs/:id`, `/metrics`), or null for a path no route has. */
  route: string | null;
  pathname: string;
  status: number;
  durationMs: number;
  caller?: RequestCaller;
  /** Set when proxy.ts refused the request: the error's code and its message. */
  refusal?: { code: string; reason: string };
};

/**
 * Writes the request's log line (at debug for a successful health check or scrape, else info) and counts it
 * in the histogram. The metric's `route` is the pattern, or `other` for a path no route has, so
 * that unknown paths never become label values.
 */
export function recordRequest(record: RequestRecord): void {
  const { requestId, method, route, pathname, status, durationMs, caller, refusal } = record;
  // Health checks, scrapes and plan polls would drown the log: at debug when they succeed.
  const level = route !== null && POLLED_ROUTES.has(route) && status < 400 ? "debug" : "info";
  getLogger()[level](
    {
      requestId,
      method,
      route: route ?? pathname,
      status,
      durationMs: Math.round(durationMs * 10) / 10,
      ...caller,
      ...(refusal ? { refusedBy: "proxy", code: refusal.code, reason: refusal.reason } : {}),
    },
    "request",
  );
  getMetrics()
    .httpDuration.labels({
      route: route ?? "other",
      method: methodLabel(method),
      status: String(status),
    })
    .observe(durationMs / 1000);
}
