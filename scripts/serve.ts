// npm start / npm run dev / npm run demo: one process that opens the database
// (DATABASE_URL, or the embedded PGlite when unset), migrates it, seeds the demo
// lab in demo mode, and serves Next on PORT (default 3000). Demo mode (password-free
// sign-in) is on only when asked for: --demo (npm run demo, npm run dev) or ALLOT_DEMO=1.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { databaseUrlOf, openDatabase } from "../lib/data/db/connect";
import { applyMigrations } from "../lib/data/db/migrator";
import { applyAdminList } from "../lib/data/admin-list";
import { createPrismaClient } from "../lib/data/db/client";
import { withStartupLock } from "../lib/data/db/startup-lock";
import {
  adminEmails,
  checkOidcSettings,
  demoHistoryDays,
  demoModeWarning,
  isDemoMode,
  leaseTtlSec,
  listenUrlOf,
  tickSeconds,
} from "../lib/env";
import { liveSpeed } from "../lib/clock";
import { checkLogLevel } from "../lib/log/logger";
import { stopLeaderElection } from "../lib/leader/leader-handle";
import { metricsGuardOf, PEER_ADDRESS_HEADER } from "../lib/guards/metrics-guard";
import { seedDemoLab } from "../prisma/seed";
import { buildWorkerBundle } from "./build-worker";
import { closeGracefully } from "./close-gracefully";

const ROOT = path.resolve(import.meta.dirname, "..");
const isDev = process.argv.includes("--dev");
if (process.argv.includes("--demo")) process.env.ALLOT_DEMO = "1";
process.env.NEXT_TELEMETRY_DISABLED = "1";

function demoSecret(): string {
  // Demo sessions survive a restart: the secret lives beside the embedded data.
  const file = path.join(ROOT, ".data", "nextauth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The shortest NEXTAUTH_SECRET accepted outside demo mode (next-auth asks for 32 bytes). */
const MIN_SECRET_LENGTH = 32;

async function main(): Promise<void> {
  // Decide demo mode once (it throws on a value it does not know) and pin it for the server.
  const isDemo = isDemoMode();
  process.env.ALLOT_DEMO = isDemo ? "1" : "0";
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
    throw new Error(`PORT must be a port number, got "${process.env.PORT}"`);
  }
  const hostname = process.env.HOST ?? "0.0.0.0";
  const listenUrl = listenUrlOf(hostname, port);
  process.env.NEXTAUTH_URL ||= listenUrl;
  // proxy.ts refuses cookie-authenticated writes from any other origin than this one.
  if (
    !/^https?:\/\/[^/]/i.test(process.env.NEXTAUTH_URL) ||
    !URL.canParse(process.env.NEXTAUTH_URL)
  ) {
    throw new Error(
      `NEXTAUTH_URL must be the app's public URL with http:// or https://, got "${process.env.NEXTAUTH_URL}".`,
    );
  }
  if (!process.env.NEXTAUTH_SECRET) {
    if (!isDemo) {
      throw new Error(
        "NEXTAUTH_SECRET is not set. It signs the sessions and is required outside demo mode:\n" +
          "  - to run for real, set it to a long random string, e.g. NEXTAUTH_SECRET=$(openssl rand -hex 32);\n" +
          "  - to try the demo (password-free sign-in as the demo users), run `npm run demo`\n" +
          "    or set ALLOT_DEMO=1.\n" +
          "See README, Environment.",
      );
    }
    process.env.NEXTAUTH_SECRET = demoSecret();
  }
  // A short secret can be guessed, and whoever guesses it signs sessions as anyone.
  if (!isDemo && process.env.NEXTAUTH_SECRET.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `NEXTAUTH_SECRET must be at least ${MIN_SECRET_LENGTH} characters (it signs the sessions; a short one can be guessed): ` +
        "e.g. NEXTAUTH_SECRET=$(openssl rand -hex 32).",
    );
  }
  if (isDemo) {
    for (const line of demoModeWarning(process.env.NEXTAUTH_URL, hostname)) console.warn(line);
  }
  // A typo in the metrics allow-list stops the server here, not at the first scrape.
  metricsGuardOf(process.env);
  const metricsToken = process.env.ALLOT_METRICS_TOKEN?.trim();
  if (metricsToken && metricsToken.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `ALLOT_METRICS_TOKEN must be at least ${MIN_SECRET_LENGTH} characters (whoever guesses it reads the metrics): ` +
        "e.g. ALLOT_METRICS_TOKEN=$(openssl rand -hex 32).",
    );
  }
  // Likewise a typo in the admins' list, not the first admin's sign-in.
  const admins = adminEmails();
  // And single sign-on half set up, which would leave the sign-in page with no way in.
  if (!checkOidcSettings() && !isDemo) {
    console.warn(
      "No way to sign in in the browser: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (README, Single sign-on).",
    );
  }
  // And in the demo history's length or the lease's TTL, before anything is seeded or led.
  const historyDays = demoHistoryDays();
  leaseTtlSec();
  // And the clock's speed, the tick's period and the log's level, before the server answers.
  liveSpeed(process.env, isDemo);
  tickSeconds();
  checkLogLevel(process.env.LOG_LEVEL);
  // Outside demo mode the server runs on the site's PostgreSQL: a DATABASE_URL lost to a typo
  // must not leave each replica on an embedded database of its own.
  if (!isDemo && !databaseUrlOf() && !process.env.PGLITE_DIR?.trim()) {
    throw new Error(
      "DATABASE_URL is not set. Outside demo mode Allot runs on your PostgreSQL:\n" +
        "  - set DATABASE_URL=postgresql://user@host:5432/database;\n" +
        "  - or, to try it on the embedded database, set PGLITE_DIR (e.g. PGLITE_DIR=.data/pglite).\n" +
        "See README, Environment.",
    );
  }
  if (!isDev && !existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    throw new Error("No production build: run `npm run build` first (or `npm run demo`).");
  }

  if (!isDev) {
    // Simulation workers start from a bundle of their sources (0.4 s, not 1.5 s through tsx).
    try {
      process.env.ALLOT_SIM_WORKER_BUNDLE = (await buildWorkerBundle()).workerPath;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      console.warn(`simulation workers run through tsx: their bundle failed (${why})`);
    }
  }

  const database = await openDatabase();
  process.env.DATABASE_URL = database.url;
  const applied = await applyMigrations(database.url);
  if (applied.length) console.log(`migrated: ${applied.join(", ")}`);
  if (!isDemo && admins !== null) {
    // The list is in force from the start, for open sessions and personal tokens too.
    const db = createPrismaClient(database.url, 1);
    try {
      const { granted, revoked } = await applyAdminList(db, admins);
      const list = (emails: string[]) => (emails.length > 0 ? emails.join(", ") : "nobody");
      if (granted.length + revoked.length > 0) {
        console.log(
          `ALLOT_ADMINS: made admin: ${list(granted)}; no longer admin: ${list(revoked)}`,
        );
      }
    } finally {
      await db.$disconnect();
    }
  }
  if (isDemo) {
    // Two replicas starting at once on one database seed one after the other (an embedded
    // database belongs to this process alone).
    const seed = () => seedDemoLab(database.url, { historyDays });
    const summary = database.isEmbedded ? await seed() : await withStartupLock(database.url, seed);
    console.log(`demo lab: ${summary}`);
  }

  // instrumentation.ts starts the tick timer and the demo executor in this process only.
  process.env.ALLOT_SERVE = "1";
  const app = next({ dev: isDev, dir: ROOT, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer((request, response) => {
    // GET /metrics' allow-list checks the socket's peer; a client's own header never counts.
    request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
    void handle(request, response);
  });
  // Idle keep-alive connections stay open for a minute, not Node's 5 s: a client that sends on a
  // connection just as the server closes it gets ECONNRESET (seen in e2e, where a page's API
  // client reused a connection idle for about 5 s). Headers must be allowed a little longer.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, hostname, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    // Port taken, or HOST unknown: give the lease back and exit, so that a supervisor sees it.
    await stopLeaderElection().catch(() => undefined);
    const code = (error as { code?: string }).code ?? String(error);
    throw new Error(`Cannot listen on ${hostname}:${port} (HOST, PORT): ${code}.`);
  }
  const where = database.isEmbedded ? "embedded database" : "DATABASE_URL";
  const mode = isDemo ? ", DEMO MODE: password-free sign-in" : "";
  console.log(`Allot on ${listenUrl} (${where}${mode})`);

  let isStopping = false;
  async function stop(signal: string): Promise<void> {
    if (isStopping) return;
    isStopping = true;
    console.log(`\n${signal}: stopping`);
    // The lease goes first, so another replica takes the timers over at its next attempt.
    await stopLeaderElection().catch(() => undefined);
    // Requests in flight are answered (up to SHUTDOWN_GRACE_MS); new connections are refused.
    await closeGracefully(server);
    await app.close();
    await database.stop();
    process.exit(0);
  }
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
