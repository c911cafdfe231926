// `npm start` with no ALLOT_DEMO (and no NODE_ENV) is not a demo: no password-free sign-in, even
// on a database that holds the demo users (docs/decisions/080-csrf-and-demo-mode.md). A second
// production server, started here the way an operator starts it, on its own port.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../lib/data/embedded-postgres";
import { applyMigrations } from "../lib/data/migrator";
import { DEMO_USERS } from "../lib/demo/lab-org";
import { seedDemoLab } from "../prisma/seed";
import { freePort } from "./fixtures";

const ROOT = path.resolve(import.meta.dirname, "..");

async function waitForHealth(base: string, server: ChildProcess, log: () => string) {
  for (let i = 0; i < 240; i += 1) {
    if (server.exitCode !== null) throw new Error(`npm start exited:\n${log()}`);
    const response = await fetch(`${base}/api/v1/health`).catch(() => null);
    if (response?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`npm start did not answer /api/v1/health:\n${log()}`);
}

/** Stops npm, tsx and the server: the whole process group (npm does not pass SIGTERM on). */
async function stopGroup(server: ChildProcess): Promise<void> {
  if (server.pid === undefined || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  process.kill(-server.pid, "SIGTERM");
  const timer = setTimeout(() => process.kill(-server.pid!, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

let database: EmbeddedPostgres;
let server: ChildProcess;
let base: string;
let output = "";

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // The demo users exist, as on a database that once ran `npm run db:seed`: only the mode
  // decides whether they sign in without a password.
  database = await startEmbeddedPostgres("memory://");
  await applyMigrations(database.url);
  await seedDemoLab(database.url, { withHistory: false });

  const port = await freePort(Number(process.env.E2E_PORT ?? 3210) + 1);
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(ALLOT_|NEXTAUTH_|OIDC_|PGLITE_)/.test(name) || name === "NODE_ENV") delete env[name];
  }
  server = spawn("npm", ["start"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...env,
      HOST: "127.0.0.1",
      PORT: String(port),
      NEXTAUTH_URL: base,
      NEXTAUTH_SECRET: "e2e-start-without-demo",
      DATABASE_URL: database.url,
      ALLOT_LIVE_SPEED: "0",
      ALLOT_TICK_SEC: "0",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitForHealth(base, server, () => output);
});

test.afterAll(async () => {
  if (server) await stopGroup(server);
  if (database) await database.stop();
});

test("npm start without ALLOT_DEMO says nothing of demo mode and seeds nothing", () => {
  expect(output).toContain(`Allot on http://localhost:`);
  expect(output).not.toMatch(/WARNING|demo mode|DEMO MODE|demo lab:/);
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
