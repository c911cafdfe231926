// scripts/serve.ts refuses a bad setting before it opens anything, naming the variable, with
// exit code 1 (a supervisor then sees it fail, not a server that answers 500 to everything).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

function start(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/serve.ts"], {
    // Only what the test gives: no DATABASE_URL or LOG_LEVEL of the machine's.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      NEXTAUTH_SECRET: "serve-start-test-nextauth-secret-0001",
      PORT: "3999",
      ...env,
    } as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stderr: result.stderr };
}

describe("scripts/serve.ts at start", () => {
  it.each([
    [{ NEXTAUTH_URL: "localhost:3465" }, "NEXTAUTH_URL must be the app's public URL with http://"],
    [{ ALLOT_LIVE_SPEED: "fast" }, 'ALLOT_LIVE_SPEED must be a number from 0 to 10000, got "fast"'],
    [{ ALLOT_TICK_SEC: "abc" }, 'ALLOT_TICK_SEC must be seconds from 0 to 3600; got "abc"'],
    [{ LOG_LEVEL: "verbose" }, "LOG_LEVEL must be one of fatal, error, warn, info"],
    [
      { DATABASE_URL: "mysql://u:secret@localhost/db" },
      'DATABASE_URL must be a PostgreSQL URL, postgresql://user@host:5432/database; got "mysql://u:***@localhost/db"',
    ],
    [
      { NEXTAUTH_SECRET: "x" },
      "NEXTAUTH_SECRET must be at least 32 characters (it signs the sessions; a short one can be guessed)",
    ],
    [
      { OIDC_ISSUER: "https://sso.lab.example" },
      "Single sign-on needs all of OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET; OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are not set.",
    ],
    [
      { OIDC_ISSUER: "sso.lab.example", OIDC_CLIENT_ID: "allot", OIDC_CLIENT_SECRET: "s" },
      'OIDC_ISSUER must be the provider\'s http(s) URL; got "sso.lab.example".',
    ],
    [
      { DATABASE_URL: "" },
      "DATABASE_URL is not set. Outside demo mode Allot runs on your PostgreSQL",
    ],
    [
      { ALLOT_METRICS_TOKEN: "short-token" },
      "ALLOT_METRICS_TOKEN must be at least 32 characters (whoever guesses it reads the metrics)",
    ],
    [
      { DATABASE_URL: "allot:s3cret@db:5432/allot" },
      'DATABASE_URL must be a PostgreSQL URL, postgresql://user@host:5432/database; got "allot:***@db:5432/allot"',
    ],
    [
      { DATABASE_URL: "postgres://allot:se/cr+et@db/allot" },
      'DATABASE_URL must be a PostgreSQL URL, postgresql://user@host:5432/database; got "postgres://allot:***@db/allot"',
    ],
  ])(
    "refuses %j with a line that names it",
    (env, message) => {
      const { code, stderr } = start(env);
      expect(code).toBe(1);
      expect(stderr).toContain(message);
    },
    60_000,
  );

  it("defaults NEXTAUTH_URL to the HOST it listens on, not localhost", () => {
    // In demo mode the warning names it; the bad ALLOT_ADMINS then stops the server before it
    // opens a database or looks for a build.
    const { code, stderr } = start({
      ALLOT_DEMO: "1",
      HOST: "10.0.0.5",
      ALLOT_ADMINS: "not-an-email",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("WARNING: Serving http://10.0.0.5:3999, listening on 10.0.0.5.");
  }, 60_000);
});
