import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowedMethods, API_ROUTES } from "./routes";

const API_DIR = path.resolve(import.meta.dirname, "..", "..", "app", "api", "v1");

/** Every route.ts under app/api/v1 as "/api/v1/..." with [param] as :param, and its methods. */
function routeFiles(dir = API_DIR, prefix = "/api/v1"): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const part = entry.name.replace(/^\[(.+)\]$/, ":$1");
      Object.assign(found, routeFiles(full, `${prefix}/${part}`));
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

  it("matches parameters and trailing slashes, and adds HEAD to GET routes", () => {
    expect(allowedMethods("/api/v1/health")).toEqual(["GET", "HEAD"]);
    expect(allowedMethods("/api/v1/health/")).toEqual(["GET", "HEAD"]);
    expect(allowedMethods("/api/v1/healthz")).toBeNull();
    expect(allowedMethods("/api/v1")).toBeNull();
  });
});
