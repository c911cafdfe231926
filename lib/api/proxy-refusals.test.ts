// What proxy.ts refuses is seen by operations as a served request is (docs/operations.md): an
// X-Request-Id header, one `request` log line with the status and the reason, and a count in
// allot_http_request_duration_seconds under the route's pattern (or `other`).
import { Writable } from "node:stream";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { proxy } from "../../proxy";
import { setLogDestination } from "../log/logger";
import { getMetrics } from "../metrics/registry";
import { methodLabel } from "./request-record";

const ORIGIN = "http://allot.test";
const lines: string[] = [];

type Line = Record<string, unknown> & { msg: string };

function requestLines(): Line[] {
  return lines.map((line) => JSON.parse(line) as Line).filter((line) => line.msg === "request");
}

/** The histogram's count for these labels (0 when it has no such series). */
async function countOf(route: string, method: string, status: string): Promise<number> {
  const { values } = await getMetrics().httpDuration.get();
  const count = values.find(
    (value) =>
      value.metricName === "allot_http_request_duration_seconds_count" &&
      value.labels.route === route &&
      value.labels.method === method &&
      value.labels.status === status,
  );
  return count?.value ?? 0;
}

function call(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return proxy(new NextRequest(new URL(path, ORIGIN), init));
}

beforeAll(() => {
  process.env.NEXTAUTH_URL = ORIGIN;
  setLogDestination(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    }),
    "info",
  );
});
beforeEach(() => {
  lines.length = 0;
});
afterAll(() => {
  setLogDestination(process.stdout);
});

describe("requests proxy.ts refuses", () => {
  it("an unknown API path: 404 with a request id, a log line naming the path, counted as other", async () => {
    const before = await countOf("other", "GET", "404");
    const response = call("/api/v1/healthz");
    expect(response.status).toBe(404);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines()).toEqual([
      expect.objectContaining({
        level: "info",
        requestId,
        method: "GET",
        route: "/api/v1/healthz",
        status: 404,
        refusedBy: "proxy",
        code: "not_found",
        reason: "No API route at /api/v1/healthz.",
        durationMs: expect.any(Number),
      }),
    ]);
    expect(await countOf("other", "GET", "404")).toBe(before + 1);
  });

  it("a wrong method: 405 under the route's pattern, keeping a reverse proxy's request id", async () => {
    const before = await countOf("/api/v1/jobs/:id", "DELETE", "405");
    const response = call("/api/v1/jobs/job-1", {
      method: "DELETE",
      headers: { "x-request-id": "lb-7f3a" },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("x-request-id")).toBe("lb-7f3a");
    expect(requestLines()).toEqual([
      expect.objectContaining({
        requestId: "lb-7f3a",
        route: "/api/v1/jobs/:id",
        status: 405,
        code: "method_not_allowed",
      }),
    ]);
    expect(await countOf("/api/v1/jobs/:id", "DELETE", "405")).toBe(before + 1);
  });

  it("a cross-origin write: 403 with its reason", async () => {
    const before = await countOf("/api/v1/jobs", "POST", "403");
    const response = call("/api/v1/jobs", {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(requestLines()).toEqual([
      expect.objectContaining({
        route: "/api/v1/jobs",
        status: 403,
        code: "forbidden",
        reason: expect.stringContaining('Origin "https://evil.example" is not'),
      }),
    ]);
    expect(await countOf("/api/v1/jobs", "POST", "403")).toBe(before + 1);
  });

  it("a write that is not JSON: 415", async () => {
    const before = await countOf("/api/v1/jobs", "POST", "415");
    const response = call("/api/v1/jobs", {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "text/plain" },
    });
    expect(response.status).toBe(415);
    expect(requestLines()).toEqual([
      expect.objectContaining({ status: 415, code: "unsupported_media_type" }),
    ]);
    expect(await countOf("/api/v1/jobs", "POST", "415")).toBe(before + 1);
  });

  it("a POST to GET /metrics with a bearer token and no Origin: 405 with Allow, not a 403", async () => {
    const before = await countOf("/metrics", "POST", "405");
    const response = call("/metrics", {
      method: "POST",
      headers: { authorization: "Bearer s3cret-metrics-token" },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await response.json()).toEqual({
      error: {
        code: "method_not_allowed",
        message: "POST is not allowed on /metrics; use GET, HEAD.",
      },
    });
    expect(requestLines()).toEqual([
      expect.objectContaining({ route: "/metrics", status: 405, code: "method_not_allowed" }),
    ]);
    expect(lines.join("\n")).not.toContain("s3cret-metrics-token");
    expect(await countOf("/metrics", "POST", "405")).toBe(before + 1);
  });

  it("a server action without an Origin: 403 logged by its path, counted as other", async () => {
    const before = await countOf("other", "POST", "403");
    const response = call("/clusters/b300/nodes", {
      method: "POST",
      headers: { "next-action": "7f00" },
    });
    expect(response.status).toBe(403);
    expect(requestLines()).toEqual([
      expect.objectContaining({ route: "/clusters/b300/nodes", status: 403, code: "forbidden" }),
    ]);
    expect(await countOf("other", "POST", "403")).toBe(before + 1);
  });

  it("lets a request it does not refuse through, leaving its line to the route", () => {
    const response = call("/api/v1/jobs");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(requestLines()).toEqual([]);
  });
});

describe("methodLabel", () => {
  it("counts the standard methods by name and any other as OTHER, so the series stay few", () => {
    expect(methodLabel("GET")).toBe("GET");
    expect(methodLabel("DELETE")).toBe("DELETE");
    expect(methodLabel("PROPFIND")).toBe("OTHER");
  });
});
