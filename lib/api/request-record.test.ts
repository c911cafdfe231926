import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetLogger, setLogDestination } from "../log/logger";
import { recordRequest } from "./request-record";

const lines: { level: string; route: string; status: number }[] = [];

beforeAll(() => {
  setLogDestination(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) {
          lines.push(JSON.parse(line) as { level: string; route: string; status: number });
        }
        done();
      },
    }),
    "debug",
  );
});
afterAll(() => resetLogger());

describe("recordRequest", () => {
  it("logs successful health checks and scrapes at debug, everything else at info", () => {
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
    expect(lines.map(({ level, route, status }) => `${level} ${route} ${status}`)).toEqual([
      "debug /api/v1/health 200",
      "debug /metrics 200",
      "info /metrics 401",
      "info /api/v1/health 503",
      "info /api/v1/jobs 200",
    ]);
  });
});
