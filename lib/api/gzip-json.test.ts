import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzipDocument, gzipJsonResponse } from "./gzip-json";

describe("acceptsGzipDocument", () => {
  it("accepts application/gzip listed alone, among others or with a weight", () => {
    expect(acceptsGzipDocument("application/gzip")).toBe(true);
    expect(acceptsGzipDocument("application/gzip, application/json")).toBe(true);
    expect(acceptsGzipDocument("application/json;q=0.5, Application/GZIP;q=0.9")).toBe(true);
  });

  it("refuses no header, wildcards, other types and application/gzip;q=0", () => {
    expect(acceptsGzipDocument(null)).toBe(false);
    expect(acceptsGzipDocument("*/*")).toBe(false);
    expect(acceptsGzipDocument("application/*")).toBe(false);
    expect(acceptsGzipDocument("application/json")).toBe(false);
    expect(acceptsGzipDocument("application/gzip;q=0, application/json")).toBe(false);
  });
});

describe("gzipJsonResponse", () => {
  const gz = new Uint8Array(gzipSync('{"a":1}'));

  it("answers the stored bytes to a client that asks for application/gzip", async () => {
    const request = new Request("http://x/", { headers: { accept: "application/gzip" } });
    const response = gzipJsonResponse(request, gz, { "Cache-Control": "private" });
    expect(response.headers.get("content-type")).toBe("application/gzip");
    expect(response.headers.get("vary")).toBe("Accept");
    expect(response.headers.get("cache-control")).toBe("private");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(gz);
  });

  it("answers the JSON to any other client", async () => {
    const request = new Request("http://x/", { headers: { accept: "*/*" } });
    const response = gzipJsonResponse(request, gz);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe('{"a":1}');
  });
});
