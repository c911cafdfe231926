import { expect, test } from "@playwright/test";
import { sameOrigin, signInAs, waitForHydration } from "./fixtures";

test("a person makes a token on the tokens page, uses it on the API, and revokes it", async ({
  page,
  request,
}) => {
  await signInAs(page, "researcher");
  await page.getByRole("link", { name: "API tokens" }).click();
  await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();

  await page.getByLabel("Token name").fill("e2e laptop");
  await page.getByLabel("Expires").selectOption({ label: "in 30 days" });
  await page.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByLabel("New token");
  await expect(shown).toHaveText(/^allot_p_[A-Za-z0-9_-]{32}$/);
  const token = (await shown.textContent())!;
  const row = page.getByRole("row", { name: /e2e laptop/ });
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row.getByRole("cell").nth(2)).toHaveText("never");

  // Shown once: after a reload only its first characters are on the page.
  await page.reload();
  await expect(page.getByRole("row", { name: /e2e laptop/ })).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);

  const bearer = { Authorization: `Bearer ${token}` };
  const jobs = await request.get("/api/v1/jobs", { headers: bearer });
  expect(jobs.status()).toBe(200);
  expect(Array.isArray((await jobs.json()).jobs)).toBe(true);
  const listed = await request.get("/api/v1/tokens", { headers: bearer });
  expect((await listed.json()).tokens).toEqual([
    expect.objectContaining({ name: "e2e laptop", prefix: token.slice(0, 12), revokedAt: null }),
  ]);

  await page.reload();
  const usedRow = page.getByRole("row", { name: /e2e laptop/ });
  await expect(usedRow.getByRole("cell").nth(2)).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  await usedRow.getByRole("button", { name: "Revoke token e2e laptop" }).click();
  // Asked first: cancelling keeps it.
  const ask = page.getByRole("dialog", { name: "Revoke token e2e laptop?" });
  await expect(ask).toContainText("scripts and the command line that send it are refused");
  await ask.getByRole("button", { name: "Keep as is" }).click();
  await expect(page.getByRole("row", { name: /e2e laptop/ })).not.toContainText("revoked");
  expect((await request.get("/api/v1/jobs", { headers: bearer })).status()).toBe(200);
  await usedRow.getByRole("button", { name: "Revoke token e2e laptop" }).click();
  await ask.getByRole("button", { name: "Revoke the token" }).click();
  await expect(page.getByRole("row", { name: /e2e laptop/ })).toContainText("revoked");

  const refused = await request.get("/api/v1/jobs", { headers: bearer });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({
    error: { code: "unauthorized", message: "The token is unknown or revoked." },
  });
});

test("the session makes and revokes tokens through the API too, its own only", async ({
  page,
  browser,
  request,
}) => {
  await signInAs(page, "pi");
  const created = await page.request.post("/api/v1/tokens", {
    headers: sameOrigin(),
    data: { name: "e2e script", expiresInDays: null },
  });
  expect(created.status()).toBe(201);
  const { token, id, expiresAt } = await created.json();
  expect(expiresAt).toBeNull();
  const refused = await page.request.post("/api/v1/tokens", {
    headers: sameOrigin(),
    data: { name: "e2e script", expiresInDays: 0 },
  });
  expect(refused.status()).toBe(422);
  expect((await refused.json()).error.issues.map((issue: { path: string }) => issue.path)).toEqual([
    "expiresInDays",
  ]);

  // A token cannot make a token: one that expires could otherwise make one that never does.
  const byToken = await request.post("/api/v1/tokens", {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: "e2e forever", expiresInDays: null },
  });
  expect(byToken.status()).toBe(403);

  // The PI's token acts as the PI: it reads the queue the PI reads in the browser.
  const queue = await request.get("/api/v1/clusters/h100/queue", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(queue.status()).toBe(200);

  const researcher = await (await browser.newContext()).newPage();
  await signInAs(researcher, "researcher");
  const notTheirs = await researcher.request.delete(`/api/v1/tokens/${id}`, {
    headers: sameOrigin(),
    data: {},
  });
  expect(notTheirs.status()).toBe(404);
  const stillGood = await request.get("/api/v1/tokens", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(stillGood.status()).toBe(200);

  const revoked = await request.delete(`/api/v1/tokens/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(revoked.status()).toBe(200);
  expect((await revoked.json()).revokedAt).not.toBeNull();
  const after = await request.get("/api/v1/tokens", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(after.status()).toBe(401);
});

test("an admin sees others' tokens in force and revokes one of a person who leaves", async ({
  page,
  browser,
  request,
}) => {
  const researcher = await (await browser.newContext()).newPage();
  await signInAs(researcher, "researcher");
  const created = await researcher.request.post("/api/v1/tokens", {
    headers: sameOrigin(),
    data: { name: "e2e leaving", expiresInDays: null },
  });
  expect(created.status()).toBe(201);
  const { token } = await created.json();
  const bearer = { Authorization: `Bearer ${token}` };

  await signInAs(page, "admin");
  await page.goto("/tokens");
  await waitForHydration(page);
  const others = page.getByRole("region", { name: "Everyone else's tokens in force" });
  const row = others.getByRole("row", { name: /Riley Chen .* e2e leaving/ });
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "Revoke token e2e leaving of Riley Chen" }).click();
  await page
    .getByRole("dialog", { name: "Revoke token e2e leaving of Riley Chen?" })
    .getByRole("button", { name: "Revoke the token" })
    .click();
  await expect(others.getByRole("row", { name: /e2e leaving/ })).toHaveCount(0);
  expect((await request.get("/api/v1/jobs", { headers: bearer })).status()).toBe(401);
});

test("the API description is public JSON: OpenAPI 3.1 with every route", async ({ request }) => {
  const response = await request.get("/api/v1/openapi.json");
  expect(response.status()).toBe(200);
  const document = await response.json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toContain("/api/v1/tokens/{id}");
  expect(Object.keys(document.paths)).toContain("/api/v1/clusters/{name}/events");
  expect(document.servers).toEqual([{ url: new URL(test.info().project.use.baseURL!).origin }]);
});
