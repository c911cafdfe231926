import { expect, test } from "@playwright/test";
import { signInAs } from "./fixtures";

test("health reports the database as reachable", async ({ request }) => {
  const response = await request.get("/api/v1/health");
  expect(response.status()).toBe(200);
  // The only server of the run holds the leader lease (docs/decisions/091).
  expect(await response.json()).toEqual({ status: "ok", database: "ok", replica: "leader" });
});

test("API errors are JSON in one shape: 401, bad token, 404, 405", async ({ request }) => {
  const anonymous = await request.get("/api/v1/budgets");
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).error.code).toBe("unauthorized");

  // A write with neither a token nor a browser's cookie and Origin: 401, not the Origin rule.
  const anonymousWrite = await request.post("/api/v1/jobs", { data: {} });
  expect(anonymousWrite.status()).toBe(401);
  expect(await anonymousWrite.json()).toEqual({
    error: { code: "unauthorized", message: "Sign in, or send 'Authorization: Bearer <token>'." },
  });

  const badToken = await request.get("/api/v1/budgets", {
    headers: { Authorization: "Bearer not-a-real-token" },
  });
  expect(badToken.status()).toBe(401);
  expect(await badToken.json()).toEqual({
    error: { code: "unauthorized", message: "The token is unknown or revoked." },
  });

  const unknown = await request.get("/api/v1/no-such-thing");
  expect(unknown.status()).toBe(404);
  expect(unknown.headers()["content-type"]).toContain("application/json");
  expect((await unknown.json()).error.code).toBe("not_found");

  const wrongMethod = await request.delete("/api/v1/budgets");
  expect(wrongMethod.status()).toBe(405);
  expect(wrongMethod.headers()["allow"]).toBe("GET, HEAD");
  expect((await wrongMethod.json()).error.code).toBe("method_not_allowed");
});

test("a signed-in researcher reads the budget tree from the API", async ({ page }) => {
  await signInAs(page, "researcher");
  const response = await page.request.get("/api/v1/budgets");
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body.clusters).toEqual([
    { name: "b200", gpuType: "B200", gpus: 512 },
    { name: "b300", gpuType: "B300", gpus: 88 },
    { name: "h100", gpuType: "H100", gpus: 1024 },
  ]);
  const root = body.nodes[0];
  expect(root).toMatchObject({ parentId: null, name: "lab", effectiveShare: 1, version: 1 });
  const language = body.nodes.find((node: { path: string }) => node.path === "language");
  expect(language).toMatchObject({ weight: 40, fraction: 0.4, effectiveShare: 0.4 });
  expect(language.leads).toEqual([expect.objectContaining({ name: "Priya Raman" })]);
  expect(language.gpuHoursPerWeek.h100).toBeCloseTo(0.4 * 1024 * 168, 6);
});

test("path segments that do not decode are a 400 in the error shape, naming the segment", async ({
  page,
}) => {
  // Signed in, so that a %00 would reach the database (PostgreSQL refuses NUL in text: a 500).
  await signInAs(page, "researcher");
  for (const [path, segment, problem] of [
    ["/api/v1/jobs/%E0%A4%A", "%E0%A4%A", "is not valid percent-encoding"],
    ["/api/v1/jobs/%zz/cancel", "%zz", "is not valid percent-encoding"],
    ["/api/v1/jobs/%00", "%00", "decodes to a NUL character"],
    ["/api/v1/budgets/%00/history", "%00", "decodes to a NUL character"],
    ["/api/v1/clusters/h100%00/queue", "h100%00", "decodes to a NUL character"],
  ] as const) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(400);
    expect(response.headers()["content-type"]).toContain("application/json");
    expect(await response.json()).toEqual({
      error: { code: "bad_request", message: `The path segment "${segment}" ${problem}.` },
    });
  }
});

test("page paths that do not decode show the 404 page, signed in or out", async ({ page }) => {
  const check = async () => {
    for (const path of ["/jobs/%ZZ", "/clusters/%E0%A4%A", "/docs/%zz"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    }
  };
  await check();
  await signInAs(page, "researcher");
  await check();
});
