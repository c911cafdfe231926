import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS } from "./e2e/chromium";

// Debian's Chromium: Playwright downloads no browser here (docs/decisions/005-testing.md).
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(CHROMIUM_PATH)) {
  throw new Error(
    `Chromium was not found at ${CHROMIUM_PATH}. Install it with ` +
      "`sudo apt-get update && sudo apt-get install -y chromium`, or set CHROMIUM_PATH.",
  );
}

const PORT = Number(process.env.E2E_PORT ?? 3210);
const BASE_URL = `http://localhost:${PORT}`;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 30_000,
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    // The production build, served the way `npm start` serves it, in demo mode.
    command: "node --import tsx scripts/serve.ts",
    url: `${BASE_URL}/api/v1/health`,
    reuseExistingServer: false,
    // The demo seed simulates 35 days of history first (~25-50 s, docs/decisions/070).
    timeout: 240_000,
    stdout: "pipe",
    env: {
      PORT: String(PORT),
      ALLOT_DEMO: "1",
      NEXTAUTH_URL: BASE_URL,
      NEXTAUTH_SECRET: "e2e-secret-not-for-production",
      NEXT_TELEMETRY_DISABLED: "1",
      // Deterministic: no demo executor, no timer; ticks run after each submit, cancel and event.
      ALLOT_LIVE_SPEED: "0",
      ALLOT_TICK_SEC: "0",
      ...(process.env.E2E_DATABASE_URL
        ? { DATABASE_URL: process.env.E2E_DATABASE_URL }
        : { DATABASE_URL: "", PGLITE_DIR: "memory://" }),
    },
  },
});
