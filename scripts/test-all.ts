// npm test: every check, in order, stopping at the first failure. Database tests and
// e2e get a fresh database: a new one on DATABASE_URL's server (dropped afterwards),
// else the embedded PGlite in memory. SLURM tests run when the project's local SLURM is up
// (npm run slurm:up; .ci/run starts it), in the background while lint, format, unit and
// database tests run: they mostly wait on SLURM and its timers, and that wait is most of
// their 5-6 minutes. Ends with one "Tests: N passed, N failed" line.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { isLocalSlurmUp, localSlurmEnvFile, readLocalSlurmEnv } from "../lib/testing/local-slurm";

const ROOT = path.resolve(import.meta.dirname, "..");
const REPORTS = path.join(ROOT, "test-results");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
let passed = 0;
let failed = 0;

function run(
  title: string,
  command: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): boolean {
  console.log(`\n=== ${title}: ${command} ${args.join(" ")}`);
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...env, ...extraEnv },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const isOk = result.status === 0;
  console.log(`=== ${title}: ${isOk ? "ok" : "FAILED"} in ${seconds} s`);
  return isOk;
}

type BackgroundStep = {
  /** Resolves when the step ends: whether it passed, with everything it printed. */
  done: Promise<{ isOk: boolean; output: string }>;
};

/**
 * Starts a step in the background; what it prints goes straight to `logFile` (not through a
 * pipe: the steps run meanwhile block this process, which could not drain one) and to the
 * console when it ends (wait with `finishBackground`), so the two outputs do not interleave.
 * Its seconds are counted to when this process sees it end: no sooner than the step beside it.
 */
function runInBackground(
  title: string,
  command: string,
  args: string[],
  logFile: string,
): BackgroundStep {
  console.log(`\n=== ${title}: ${command} ${args.join(" ")} (in the background, log ${logFile})`);
  const started = performance.now();
  const log = openSync(logFile, "w");
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const done = new Promise<{ isOk: boolean; output: string }>((resolve) => {
    child.on("exit", (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const isOk = code === 0;
      const output =
        readFileSync(logFile, "utf8") +
        `=== ${title}: ${isOk ? "ok" : "FAILED"} in ${seconds} s (in the background)\n`;
      resolve({ isOk, output });
    });
  });
  return { done };
}

function countVitest(file: string): void {
  if (!existsSync(file)) {
    failed += 1; // the run stopped before any test (a failed global setup)
    return;
  }
  const report = JSON.parse(readFileSync(file, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}

function countPlaywright(file: string): void {
  const report = JSON.parse(readFileSync(file, "utf8")) as {
    stats: { expected: number; unexpected: number; flaky: number };
  };
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
}

async function withE2eDatabase<T>(work: (url: string | undefined) => T): Promise<T> {
  const serverUrl = process.env.DATABASE_URL?.trim();
  if (!serverUrl) return work(undefined);
  const name = `allot_e2e_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return work(url.toString());
  } finally {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

function vitestArgs(project: string): string[] {
  const report = path.join(REPORTS, `${project}.json`);
  const reporters = ["--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
  return ["vitest", "run", "--project", project, ...reporters];
}

/** One vitest project, counted; whether it passed. */
function runVitest(title: string, project: string): boolean {
  const isOk = run(title, "npx", vitestArgs(project));
  countVitest(path.join(REPORTS, `${project}.json`));
  return isOk;
}

/** The step running in the background, waited for before the run ends. */
let background: BackgroundStep | null = null;

/** Waits for the background vitest project, prints its output, counts it. */
async function finishBackground(project: string): Promise<boolean> {
  if (!background) return true;
  const { isOk, output } = await background.done;
  background = null;
  process.stdout.write(`\n${output}`);
  countVitest(path.join(REPORTS, `${project}.json`));
  return isOk;
}

/**
 * Stops after a failure. A SLURM run in the background is let end first: killing vitest would
 * skip its afterAll, leaving its production server, SLURM jobs and scratch database behind.
 */
async function fail(): Promise<never> {
  if (background) {
    console.log("\n=== a step failed: waiting for the SLURM tests in the background to end");
    await finishBackground("slurm");
  }
  return finish(false);
}

function finish(isOk: boolean): never {
  console.log(`\nTests: ${passed} passed, ${failed} failed`);
  process.exit(isOk && failed === 0 ? 0 : 1);
}

async function main(): Promise<void> {
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  if (!run("typecheck", "npx", ["tsc", "--noEmit"])) finish(false);

  // .ci/run sets ALLOT_REQUIRE_SLURM=1: there the SLURM tests always run (and fail without it).
  const slurmEnv = readLocalSlurmEnv();
  const isSlurmUp = slurmEnv !== null && isLocalSlurmUp(slurmEnv);
  const isSlurmRun = isSlurmUp || process.env.ALLOT_REQUIRE_SLURM === "1";
  if (!isSlurmRun) {
    console.log(
      `\n=== SLURM tests: skipped, no local SLURM (${localSlurmEnvFile()}; npm run slurm:up)`,
    );
  }

  // The build first: the SLURM tests drive the production server, and they start now, in the
  // background, to wait on SLURM while the checks below keep the cores busy.
  if (!run("production build", "npx", ["next", "build"])) finish(false);
  if (isSlurmRun) {
    background = runInBackground(
      "SLURM tests (local SLURM)",
      "npx",
      vitestArgs("slurm"),
      path.join(REPORTS, "slurm.log"),
    );
  }
  const steps: [string, string, string[]][] = [
    ["lint", "npx", ["eslint", ".", "--max-warnings", "0"]],
    ["format", "npx", ["prettier", "--check", "."]],
  ];
  for (const [title, command, args] of steps) if (!run(title, command, args)) return fail();
  if (!runVitest("unit tests", "unit")) return fail();
  if (!runVitest("database tests", "db")) return fail();
  if (!(await finishBackground("slurm"))) return fail();

  const playwrightJson = path.join(REPORTS, "e2e.json");
  const isE2eOk = await withE2eDatabase((url) =>
    run(
      "end-to-end tests (Chromium, production build)",
      "npx",
      ["playwright", "test", "--reporter=list,json"],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
        ...(url ? { E2E_DATABASE_URL: url } : {}),
      },
    ),
  );
  countPlaywright(playwrightJson);
  finish(isE2eOk);
}

main().catch(async (error: unknown) => {
  console.error(error);
  await fail();
});
