// npx tsx scripts/bench/philly-browser.ts [--no-build] [--port N] [--runs N] [--days N]
//   [--trace path] [--log] [--screenshot file.png]
// The Philly simulation from the browser (issue #8: under 20 s), on the production build: builds
// it (unless --no-build), serves it on its own database of the machine's PostgreSQL
// (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/allot_bench, created on first
// use and kept, so the demo seed runs once), signs in in Chromium, starts the built-in Philly
// scenario from the form and times click -> results with both timelines painted. The breakdown
// comes from the simulation's row (polled every 50 ms), the worker's own log line and the page's
// marks and network timing. --days N replays the trace's first N days; --log prints the server;
// --screenshot saves the results page of the last run. The simulations it started are deleted at
// the end (scripts/bench/lib/bench-simulations.ts), so their results do not pile up in the database.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import pg from "pg";
import { CHROMIUM_ARGS } from "../../e2e/chromium";
import {
  isSimulationPage,
  removeBenchSimulations,
  simulationIdOfPage,
} from "./lib/bench-simulations";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1]! : fallback;
};
const PORT = Number(option("--port", "3290"));
const RUNS = Number(option("--runs", "1"));
const DAYS = option("--days", ""); // the form's Days option: the trace's first N days only
const IS_LOGGING = args.includes("--log"); // prints the server's output during the run
const SCREENSHOT = option("--screenshot", ""); // a PNG of the last run's results page
const BASE_URL = `http://localhost:${PORT}`;
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/allot_bench";
const TRACE = path.resolve(
  option("--trace", process.env.ALLOT_PHILLY_CSV ?? path.join(ROOT, "../shared/traces/philly.csv")),
);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const RESULTS_TIMEOUT_MS = 10 * 60_000;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      console.log(`created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

function build(): void {
  const startMs = performance.now();
  const result = spawnSync("npx", ["next", "build"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error("next build failed");
  console.log(`next build: ${seconds(performance.now() - startMs)}`);
}

type Server = { child: ChildProcess; lines: string[]; stop: () => Promise<void> };

async function startServer(): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts"], {
    cwd: ROOT,
    detached: true, // its own process group: the simulation workers it spawns stop with it
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URL,
      ALLOT_DEMO: "1",
      NEXTAUTH_URL: BASE_URL,
      NEXTAUTH_SECRET: "bench-secret-not-for-production",
      NEXT_TELEMETRY_DISABLED: "1",
      ALLOT_LIVE_SPEED: "0",
      ALLOT_TICK_SEC: "0",
      ALLOT_PHILLY_CSV: TRACE,
    },
  });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = "";
    stream.on("data", (chunk: Buffer) => {
      const parts = (rest + chunk.toString("utf8")).split("\n");
      rest = parts.pop()!;
      lines.push(...parts);
    });
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
  };
  const startMs = performance.now();
  while (performance.now() - startMs < 300_000) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited (${child.exitCode}):\n${lines.slice(-20).join("\n")}`);
    }
    const ok = await fetch(`${BASE_URL}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) {
      console.log(`server up in ${seconds(performance.now() - startMs)}`);
      return { child, lines, stop };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error("The server did not answer its health check within 300 s.");
}

type Row = {
  status: string;
  phase: string | null;
  created: number;
  started: number | null;
  finished: number | null;
};

/** Polls the newest simulation's row; records when each phase was first seen (epoch ms). */
function watchRow(client: pg.Client, sinceMs: number) {
  const phases: { atMs: number; phase: string }[] = [];
  let row: Row | null = null;
  let isWatching = true;
  const done = (async () => {
    while (isWatching) {
      const result = await client.query<Row>(
        `SELECT status, phase,
           extract(epoch FROM "createdAt") * 1000 AS created,
           extract(epoch FROM "startedAt") * 1000 AS started,
           extract(epoch FROM "finishedAt") * 1000 AS finished
         FROM simulations WHERE "createdAt" >= to_timestamp($1 / 1000.0)
         ORDER BY "createdAt" DESC LIMIT 1`,
        [sinceMs],
      );
      const atMs = Date.now();
      const found = result.rows[0];
      if (found) {
        row = {
          ...found,
          created: Number(found.created),
          started: found.started === null ? null : Number(found.started),
          finished: found.finished === null ? null : Number(found.finished),
        };
        if (found.phase && phases.at(-1)?.phase !== found.phase) {
          phases.push({ atMs, phase: found.phase });
        }
        if (found.status === "done" || found.status === "failed") break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    phases,
    row: () => row,
    stop: async () => {
      isWatching = false;
      await done;
    },
  };
}

async function signIn(page: Page): Promise<void> {
  await page.goto("/signin");
  await page.getByRole("button", { name: /Sign in as .*, researcher/ }).click();
  await page.getByText(/Signed in as/).waitFor();
}

/** Epoch ms of the first phase matching `test`, or null. */
function phaseAt(phases: { atMs: number; phase: string }[], test: RegExp): number | null {
  return phases.find((entry) => test.test(entry.phase))?.atMs ?? null;
}

/**
 * Installed in every page: stamps (epoch ms) when the results heading appears, when both
 * canvases have their bars laid out and, two frames later, when they are painted (the paint runs
 * in the first frame after layout). A string, not a function: tsx would name the function's
 * inner functions with a helper the page does not have.
 */
const RECORD_MARKS = `
  const marks = (window.benchMarks = {});
  const check = () => {
    if (!marks.results && document.getElementById("results-heading")) marks.results = Date.now();
    if (marks.laidOut) return;
    const counts = ["baseline", "allocation"].map((name) =>
      Number(document.querySelector('[data-testid="timeline-' + name + '"]')?.getAttribute("data-bar-count")),
    );
    if (counts.every((count) => count > 0)) {
      marks.laidOut = Date.now();
      requestAnimationFrame(() => requestAnimationFrame(() => (marks.drawn = Date.now())));
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
`;

type Marks = {
  results: number;
  laidOut: number;
  drawn: number;
  timeline?: { start: number; responseStart: number; end: number; transfer: number; body: number };
};

/** One run, timed and printed; adds the id of the simulation it started to `startedIds`. */
async function runOnce(
  page: Page,
  client: pg.Client,
  server: Server,
  startedIds: string[],
): Promise<number> {
  await page.goto("/simulations/new");
  await page.getByRole("radio", { name: /Philly trace/ }).check();
  if (DAYS) await page.locator('input[name="days"]').fill(DAYS);
  const linesBefore = server.lines.length;
  const clickMs = Date.now();
  const watch = watchRow(client, clickMs - 1000);
  await page.getByRole("button", { name: "Run simulation" }).click();
  await page.waitForURL(isSimulationPage);
  const pageOpenMs = Date.now();
  const failed = page.getByText("The simulation failed.");
  await page
    .getByRole("heading", { name: "Results" })
    .or(failed)
    .waitFor({ timeout: RESULTS_TIMEOUT_MS });
  startedIds.push(simulationIdOfPage(page.url()));
  if (await failed.isVisible()) {
    throw new Error(`The simulation failed:\n${await page.locator(".error-text").textContent()}`);
  }
  await page
    .waitForFunction(
      () => (window as unknown as { benchMarks: { drawn?: number } }).benchMarks.drawn,
      undefined,
      { timeout: 120_000 },
    )
    .catch(async (error: unknown) => {
      const state = await page.evaluate(() => ({
        marks: (window as unknown as { benchMarks?: unknown }).benchMarks,
        canvases: [...document.querySelectorAll("canvas")].map((canvas) =>
          canvas.getAttribute("data-bar-count"),
        ),
      }));
      throw new Error(`The timelines were not drawn: ${JSON.stringify(state)}`, { cause: error });
    });
  const marks = await page.evaluate((): Marks => {
    const found = performance
      .getEntriesByType("resource")
      .find((entry) => /\/api\/v1\/simulations\/[^/]+\/timeline$/.test(entry.name)) as
      PerformanceResourceTiming | undefined;
    const origin = performance.timeOrigin;
    return {
      ...(window as unknown as { benchMarks: Omit<Marks, "timeline"> }).benchMarks,
      ...(found
        ? {
            timeline: {
              start: origin + found.startTime,
              responseStart: origin + found.responseStart,
              end: origin + found.responseEnd,
              transfer: found.encodedBodySize,
              body: found.decodedBodySize,
            },
          }
        : {}),
    };
  });
  await watch.stop();
  const row = watch.row();
  const bars = await page.evaluate(() =>
    ["baseline", "allocation"].map((name) =>
      document.querySelector(`[data-testid="timeline-${name}"]`)?.getAttribute("data-bar-count"),
    ),
  );
  const workerLine = server.lines
    .slice(linesBefore)
    .find((line) => /simulation \w+ .*done in/.test(line));

  const total = marks.drawn - clickMs;
  const at = (ms: number | null | undefined) =>
    ms === null || ms === undefined ? "      ?" : seconds(ms - clickMs).padStart(7);
  const simulatingMs = phaseAt(watch.phases, /^simulating|^baseline/);
  const baselineDoneMs = phaseAt(watch.phases, /^baseline 100%/);
  const replayedMs = phaseAt(watch.phases, /^building the reports|allocation 100%/);
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  console.log(
    `philly from the browser: click -> results with both timelines drawn ${seconds(total)}`,
  );
  console.log(
    `  (target 20 s; load average ${loadavg()[0]!.toFixed(1)}; bars ${bars.join(" / ")})`,
  );
  console.log("  since the click (row polled every 50 ms; phases as first seen):");
  console.log(`  ${at(row?.created)}  simulation row created (POST answered)`);
  console.log(`  ${at(pageOpenMs)}  simulation page open`);
  console.log(`  ${at(row?.started)}  worker claimed it (spawn, tsx, Prisma)`);
  console.log(`  ${at(simulatingMs)}  scenario built, replays start`);
  console.log(`  ${at(baselineDoneMs)}  baseline replay done`);
  console.log(`  ${at(replayedMs)}  replays done`);
  console.log(`  ${at(row?.finished)}  reports, timelines stored; row done`);
  console.log(`  ${at(marks.results)}  results shown`);
  const t = marks.timeline;
  if (t) {
    console.log(`  ${at(t.start)}  timeline requested`);
    console.log(`  ${at(t.responseStart)}  timeline response starts`);
    const decoded = t.body === t.transfer ? "" : `, ${mb(t.body)} decoded`;
    console.log(`  ${at(t.end)}  timeline received (${mb(t.transfer)} sent${decoded})`);
  }
  console.log(`  ${at(marks.laidOut)}  both timelines laid out`);
  console.log(`  ${at(marks.drawn)}  both timelines painted`);
  if (row?.started && simulatingMs && replayedMs && row.finished) {
    console.log(
      "  spans: " +
        [
          `worker start ${seconds(row.started - row.created)}`,
          `scenario ${seconds(simulatingMs - row.started)}`,
          `replays ${seconds(replayedMs - simulatingMs)}`,
          `then stored ${seconds(row.finished - replayedMs)}`,
          `results shown ${seconds(marks.results - row.finished)}`,
          `timelines drawn ${seconds(marks.drawn - marks.results)}`,
        ].join(", "),
    );
  }
  if (workerLine) console.log(`  worker: ${workerLine.trim()}`);
  if (IS_LOGGING) console.log(server.lines.slice(linesBefore).join("\n"));
  return total;
}

async function main(): Promise<void> {
  if (!existsSync(TRACE))
    throw new Error(`No Philly trace at ${TRACE}: pass --trace or set ALLOT_PHILLY_CSV.`);
  if (!args.includes("--no-build")) build();
  await ensureDatabase(DATABASE_URL);
  const server = await startServer();
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const startedIds: string[] = [];
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({
      baseURL: BASE_URL,
      viewport: { width: 1280, height: 900 },
    });
    await page.addInitScript(RECORD_MARKS);
    await signIn(page);
    const totals: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      totals.push(await runOnce(page, client, server, startedIds));
    }
    if (RUNS > 1) console.log(`totals: ${totals.map(seconds).join(", ")}`);
    if (SCREENSHOT) {
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      console.log(`results page saved to ${SCREENSHOT}`);
    }
  } finally {
    await browser.close();
    await server.stop(); // and its workers: nothing writes to the rows deleted next
    try {
      const deleted = await removeBenchSimulations(client, startedIds);
      console.log(`${deleted} simulation(s) of this run deleted from the bench database`);
    } finally {
      await client.end();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
