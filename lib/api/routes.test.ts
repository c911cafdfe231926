import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowedMethods, API_ROUTES, OTHER_ROUTES } from "./routes";

const APP_DIR = path.resolve(import.meta.dirname, "..", "..", "app");
const API_DIR = path.join(APP_DIR, "api", "v1");

/**
 * Every route.ts under `dir` as "/api/v1/..." with [param] as :param (a route group's folder
 * adds nothing), and its methods; `skip` leaves a folder out.
 */
function routeFiles(dir = API_DIR, prefix = "/api/v1", skip = ""): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full === skip) continue;
      const isGroup = /^\(.+\)$/.test(entry.name);
      const part = entry.name.replace(/^\[(.+)\]$/, ":$1");
      Object.assign(found, routeFiles(full, isGroup ? prefix : `${prefix}/${part}`, skip));
    } else if (entry.name === "route.ts") {
      const source = readFileSync(full, "utf8");
      found[prefix] = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((method) =>
        new RegExp(`export const ${method}\\b`).test(source),
      );
    }
  }
  return found;
}

describe("API route table", () => {
  it("lists exactly the route files and the methods they export", () => {
    expect(API_ROUTES).toEqual(routeFiles());
  });

  it("lists the route files outside app/api (GET /metrics) in the other table", () => {
    expect(OTHER_ROUTES).toEqual(routeFiles(APP_DIR, "", path.join(APP_DIR, "api")));
    expect(allowedMethods("/metrics")).toEqual(["GET", "HEAD"]);
    expect(allowedMethods("/clusters/b300/nodes")).toBeNull();
  });

  it("matches parameters and trailing slashes, and adds HEAD to GET routes", () => {
    expect(allowedMethods("/api/v1/health")).toEqual(["GET", "HEAD"]);
    expect(allowedMethods("/api/v1/health/")).toEqual(["GET", "HEAD"]);
    expect(allowedMethods("/api/v1/healthz")).toBeNull();
    expect(allowedMethods("/api/v1")).toBeNull();
  });
});
