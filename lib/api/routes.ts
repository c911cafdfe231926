// The API's routes and their methods, in one table: proxy.ts answers unknown
// paths (404) and wrong methods (405) with the JSON error shape from it, and a
// test keeps it in step with the route files under app/api/v1. The route handlers
// outside the API (GET /metrics) have a table of their own, for the 405.

export const API_ROUTES: Record<string, readonly string[]> = {
  "/api/v1/health": ["GET"],
  "/api/v1/budgets": ["GET"],
  "/api/v1/budgets/:nodeId/children": ["PUT"],
  "/api/v1/budgets/:nodeId/drafts": ["GET", "POST"],
  "/api/v1/budgets/:nodeId/history": ["GET"],
  "/api/v1/budgets/:nodeId/leads": ["POST", "DELETE"],
  "/api/v1/budgets/:nodeId/members": ["POST", "DELETE"],
  "/api/v1/clusters": ["GET", "POST"],
  "/api/v1/clusters/:name/accounts": ["GET"],
  "/api/v1/clusters/:name/events": ["POST"],
  "/api/v1/clusters/:name/jobs/:externalId": ["GET"],
  "/api/v1/clusters/:name/nodes": ["GET"],
  "/api/v1/clusters/:name/nodes/:node/health": ["POST"],
  "/api/v1/clusters/:name/plan": ["GET"],
  "/api/v1/clusters/:name/queue": ["GET"],
  "/api/v1/drafts/:id": ["GET", "DELETE"],
  "/api/v1/drafts/:id/adopt": ["POST"],
  "/api/v1/drafts/:id/what-ifs": ["GET", "POST"],
  "/api/v1/drafts/:id/what-ifs/:runId": ["GET"],
  "/api/v1/jobs": ["GET", "POST"],
  "/api/v1/jobs/:id": ["GET"],
  "/api/v1/jobs/:id/cancel": ["POST"],
  "/api/v1/me": ["GET"],
  "/api/v1/openapi.json": ["GET"],
  "/api/v1/reports/review": ["GET"],
  "/api/v1/reports/review.csv": ["GET"],
  "/api/v1/simulations": ["GET", "POST"],
  "/api/v1/simulations/:id": ["GET"],
  "/api/v1/simulations/:id/report": ["GET"],
  "/api/v1/simulations/:id/timeline": ["GET"],
  "/api/v1/tokens": ["GET", "POST"],
  "/api/v1/tokens/:id": ["DELETE"],
};

/** Route handlers outside /api/v1 and their methods: a wrong method there is a 405 too. */
export const OTHER_ROUTES: Record<string, readonly string[]> = {
  "/metrics": ["GET"],
};

function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split("/");
  const have = pathname.replace(/\/+$/, "").split("/");
  return (
    want.length === have.length &&
    want.every((part, index) => part.startsWith(":") || part === have[index])
  );
}

const ROUTES = Object.entries({ ...API_ROUTES, ...OTHER_ROUTES });

/** The route pattern a path belongs to ("/api/v1/jobs/:id", "/metrics"), or null when none has it. */
export function routePattern(pathname: string): string | null {
  return ROUTES.find(([pattern]) => matches(pattern, pathname))?.[0] ?? null;
}

/** The methods a path allows, or null when no route handler has it (a page, an unknown path). */
export function allowedMethods(pathname: string): readonly string[] | null {
  const methods = ROUTES.find(([pattern]) => matches(pattern, pathname))?.[1];
  if (!methods) return null;
  return methods.includes("GET") ? [...methods, "HEAD"] : methods;
}
