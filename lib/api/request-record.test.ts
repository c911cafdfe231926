import { afterAll, describe, expect, it } from "vitest";
import { captureLogs } from "../testing/log-capture";
import { recordRequest } from "./request-record";

const logs = captureLogs("debug");
afterAll(() => logs.stop());

describe("recordRequest", () => {
  it("logs successful health checks, scrapes and plan polls at debug, the rest at info", () => {
    const request = (route: string, status: number) =>
      recordRequest({
        requestId: "r",
        method: "GET",
        route,
        pathname: route,
        status,
        durationMs: 1,
      });
    request("/api/v1/health", 200);
    request("/metrics", 200);
    request("/metrics", 401);
    request("/api/v1/health", 503);
    request("/api/v1/jobs", 200);
    request("/api/v1/clusters/:name/plan", 200);
    request("/api/v1/clusters/:name/plan", 409);
    expect(
      logs.entries().map((line) => `${line.level} ${String(line.route)} ${String(line.status)}`),
    ).toEqual([
      "debug /api/v1/health 200",
      "debug /metrics 200",
      "info /metrics 401",
      "info /api/v1/health 503",
      "info /api/v1/jobs 200",
      "debug /api/v1/clusters/:name/plan 200",
      "info /api/v1/clusters/:name/plan 409",
    ]);
  });
});
