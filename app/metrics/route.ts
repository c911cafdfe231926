// GET /metrics - Prometheus metrics, for a token or an allowed address (docs/operations.md)
import { apiRoute, errorResponse } from "@/lib/api/respond";
import { loadMetricsSnapshot } from "@/lib/data/metrics-snapshot";
import { getLogger } from "@/lib/log/logger";
import {
  checkMetricsAccess,
  metricsGuardOf,
  PEER_ADDRESS_HEADER,
} from "@/lib/guards/metrics-guard";
import { renderMetrics } from "@/lib/metrics/scrape";

export const dynamic = "force-dynamic";

export const GET = apiRoute(
  async (request) => {
    const refusal = checkMetricsAccess(
      metricsGuardOf(process.env),
      request.headers.get("authorization"),
      request.headers.get(PEER_ADDRESS_HEADER),
    );
    if (refusal) {
      const headers =
        refusal.code === "unauthorized"
          ? { "WWW-Authenticate": 'Bearer realm="metrics"' }
          : undefined;
      return errorResponse(refusal.code, refusal.message, undefined, undefined, headers);
    }
    const { text, contentType } = await renderMetrics(() =>
      loadMetricsSnapshot().catch((error: unknown) => {
        getLogger().error({ err: error }, "metrics: the database gauges could not be read");
        return null;
      }),
    );
    return new Response(text, {
      headers: { "Content-Type": contentType, "Cache-Control": "no-store" },
    });
  },
  { route: "/metrics" },
);
