// `npm start` with no ALLOT_DEMO (and no NODE_ENV) is not a demo: no password-free sign-in, even
// on a database that holds the demo users (docs/decisions/080-csrf-and-demo-mode.md). A second
// production server, started here the way an operator starts it, on its own port.
import { expect, test } from "@playwright/test";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../lib/data/db/embedded-postgres";
import { applyMigrations } from "../lib/data/db/migrator";
import { DEMO_USERS } from "../lib/demo/lab-org";
import { seedDemoLab } from "../prisma/seed";
import { startSecondServer, type SecondServer } from "./second-server";

let database: EmbeddedPostgres;
let server: SecondServer;
let base: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // The demo users exist, as on a database that once ran `npm run db:seed`: only the mode
  // decides whether they sign in without a password.
  database = await startEmbeddedPostgres("memory://");
  await applyMigrations(database.url);
  await seedDemoLab(database.url, { withHistory: false });
  server = await startSecondServer({
    env: { NEXTAUTH_SECRET: "e2e-start-without-demo-secret-3a8d1c", DATABASE_URL: database.url },
  });
  base = server.url;
});

test.afterAll(async () => {
  await server?.stop();
  await database?.stop();
});

test("npm start without ALLOT_DEMO says nothing of demo mode and seeds nothing", () => {
  expect(server.output()).toContain(`Allot on http://localhost:`);
  expect(server.output()).not.toMatch(/WARNING|demo mode|DEMO MODE|demo lab:/);
});

test("npm start without ALLOT_DEMO offers no demo provider", async ({ request }) => {
  const providers = await request.get(`${base}/api/auth/providers`);
  expect(providers.status()).toBe(200);
  const body = (await providers.json()) as Record<string, { type: string }>;
  expect(Object.keys(body)).not.toContain("demo");
  expect(Object.values(body).map((provider) => provider.type)).not.toContain("credentials");
});

test("npm start without ALLOT_DEMO shows no demo sign-in buttons", async ({ page }) => {
  await page.goto(`${base}/signin`);
  await expect(page.getByRole("heading", { name: "Sign in to Allot" })).toBeVisible();
  await expect(page.getByText("No sign-in method is configured.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Demo users" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Sign in as/ })).toHaveCount(0);
});

test("npm start without ALLOT_DEMO: a POST to the demo callback signs nobody in", async ({
  playwright,
}) => {
  const browserless = await playwright.request.newContext({ baseURL: base });
  const { csrfToken } = (await (await browserless.get("/api/auth/csrf")).json()) as {
    csrfToken: string;
  };
  const callback = await browserless.post("/api/auth/callback/demo", {
    form: { csrfToken, email: DEMO_USERS.admin.email, json: "true" },
    maxRedirects: 0,
  });
  // next-auth knows no provider "demo" here; in demo mode the same POST signs the admin in.
  expect(callback.status()).toBe(400);
  expect(await callback.text()).toContain("not supported");
  const cookies = (await browserless.storageState()).cookies.map((cookie) => cookie.name);
  expect(cookies.some((name) => name.includes("session-token"))).toBe(false);
  expect(await (await browserless.get("/api/auth/session")).json()).toEqual({});
  const budgets = await browserless.get("/api/v1/budgets");
  expect(budgets.status()).toBe(401);
  await browserless.dispose();
});
