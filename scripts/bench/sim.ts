// npx tsx scripts/bench/sim.ts [philly|year|lab] [--trace path] [--scheduler name] [--days N]
//   [--threads N|auto] - simulator speed.
// Philly: the whole trace (82k jobs) on 48 nodes x 8 GPUs, each scheduler in a fresh process
// (targets: <= 3 s each, peak RSS < 1 GB). Year: a synthetic year of a 4,096-GPU fleet (~1M jobs,
// target <= 60 s). Lab: the 30-day lab profile. Prints one line per run.
// With --threads N, as `allot simulate --scheduler both --threads N` runs: both schedulers (or
// --scheduler's) in one fresh process, their clusters on N worker threads (1: in this thread, one
// after another; auto: as many as allot simulate would use by default), each report built as its
// result comes; prints the wall seconds.
// Runs from an esbuild bundle of itself, as the `allot` bin runs the command line (bin/bundle.mjs):
// through tsx the engine runs about 3x slower, and users do not run it that way. Each process gets
// the young generation the bin gives simulations (bin/node-flags.mjs, ADR 021).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { chooseThreadCount, simulateSchedulers } from "../../lib/cli/simulate-schedulers";
import type { CliIo } from "../../lib/cli/io";
import { ensureBundle } from "../../bin/bundle.mjs";
import { isSemiSpaceFlag, SEMI_SPACE_FLAG } from "../../bin/node-flags.mjs";
import {
  buildReport,
  convertPhillyTrace,
  parsePhillyCsv,
  parseScenario,
  runSimulation,
  SCHEDULERS,
  type Scenario,
  type SchedulerName,
} from "../../lib/sim";
import { generateLabScenario } from "../../lib/demo/lab-workload";

// The semi-spaces the bin gives simulations (ADR 021), unless this process was given a size:
// `npx tsx --max-semi-space-size=16 scripts/bench/sim.ts` times Node's default.
const semiSpaceFlag = process.execArgv.find(isSemiSpaceFlag) ?? SEMI_SPACE_FLAG;

if (process.env.ALLOT_BENCH_BUNDLED !== "1") {
  const { entryPath } = await ensureBundle("bench-sim", "scripts/bench/sim.ts");
  const child = spawnSync(process.execPath, [semiSpaceFlag, entryPath, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, ALLOT_BENCH_BUNDLED: "1" },
  });
  process.exit(child.status ?? 1);
}

const DEFAULT_TRACE = path.join(import.meta.dirname, "../../../shared/traces/philly.csv");
const FLEET = [
  { name: "h100", gpuType: "H100", nodes: 256, gpusPerNode: 8 },
  { name: "b200", gpuType: "B200", nodes: 128, gpusPerNode: 8 },
  { name: "b300", gpuType: "B300", nodes: 128, gpusPerNode: 8 },
];

function load(workload: string, tracePath: string, days: number): Scenario {
  const file =
    workload === "philly"
      ? (() => {
          const parsed = parsePhillyCsv(readFileSync(tracePath, "utf8"));
          if (!parsed.ok) throw new Error(parsed.issues.slice(0, 5).join("\n"));
          return convertPhillyTrace(parsed.rows, { gpus: 384 });
        })()
      : workload === "year"
        ? generateLabScenario({ days, seed: 1, clusters: FLEET })
        : generateLabScenario({ days: 30, seed: 1 });
  const result = parseScenario(file);
  if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 5)));
  return result.value;
}

function runOne(workload: string, scheduler: SchedulerName, tracePath: string, days: number): void {
  const loadStart = performance.now();
  const scenario = load(workload, tracePath, days);
  const loadMs = performance.now() - loadStart;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const result = runSimulation(scenario, SCHEDULERS[scheduler]);
  const simMs = performance.now() - start;
  const simCpu = process.cpuUsage(cpuStart);
  const reportStart = performance.now();
  const report = buildReport(scenario, result);
  const reportMs = performance.now() - reportStart;
  const passes = result.clusters.reduce((sum, cluster) => sum + cluster.schedulingPasses, 0);
  const runs = result.jobs.reduce((sum, job) => sum + job.runs.length, 0);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(
    [
      `${workload.padEnd(6)} ${scheduler.padEnd(10)}${workload === "year" ? ` ${days} d` : ""}`,
      `jobs ${scenario.jobs.length}`,
      `runs ${runs}`,
      `passes ${passes}`,
      `load ${(loadMs / 1000).toFixed(2)} s`,
      `simulate ${(simMs / 1000).toFixed(2)} s (cpu ${((simCpu.user + simCpu.system) / 1e6).toFixed(2)} s)`,
      `report ${(reportMs / 1000).toFixed(2)} s`,
      `peak RSS ${peakMb.toFixed(0)} MB`,
      `utilisation ${report.utilisation}`,
    ].join(" | "),
  );
}

/** No progress, no files: the bench prints its own line. */
const QUIET_IO: CliIo = {
  stdout: () => undefined,
  stderr: () => undefined,
  isStderrTty: false,
  readText: () => "",
  writeText: () => undefined,
};

async function runThreaded(
  workload: string,
  schedulers: SchedulerName[],
  requested: number | "auto",
  tracePath: string,
  days: number,
): Promise<void> {
  const loadStart = performance.now();
  const scenario = load(workload, tracePath, days);
  const loadMs = performance.now() - loadStart;
  const work = {
    jobs: scenario.jobs.length,
    clusters: scenario.clusters.length,
    schedulers,
  };
  const threads = chooseThreadCount(work, requested === "auto" ? undefined : requested);
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let reportMs = 0;
  const utilisations: number[] = [];
  await simulateSchedulers(QUIET_IO, scenario, schedulers, threads, (result) => {
    const reportStart = performance.now();
    utilisations.push(buildReport(scenario, result).utilisation);
    reportMs += performance.now() - reportStart;
  });
  const totalMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const label = schedulers.length === 2 ? "both" : schedulers.join(",");
  console.log(
    [
      `${workload.padEnd(6)} ${label.padEnd(10)}${workload === "year" ? ` ${days} d` : ""} threads ${threads}${requested === "auto" ? " (auto)" : ""}`,
      `jobs ${scenario.jobs.length}`,
      `load ${(loadMs / 1000).toFixed(2)} s`,
      `simulate ${((totalMs - reportMs) / 1000).toFixed(2)} s wall`,
      `reports ${(reportMs / 1000).toFixed(2)} s`,
      `total ${(totalMs / 1000).toFixed(2)} s wall (cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s, all threads)`,
      `peak RSS ${peakMb.toFixed(0)} MB`,
      `utilisation ${utilisations.join(" ")}`,
    ].join(" | "),
  );
}

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const tracePath = flag("trace") ?? DEFAULT_TRACE;
const only = flag("scheduler") as SchedulerName | "both" | undefined;
const days = Number(flag("days") ?? 365);
const threadsFlag = flag("threads");
const threads =
  threadsFlag === undefined ? null : threadsFlag === "auto" ? "auto" : Number(threadsFlag);
if (threads !== null && threads !== "auto" && !(Number.isInteger(threads) && threads >= 1)) {
  throw new Error(`--threads must be auto or a whole number from 1, got "${threadsFlag}"`);
}
const workloads = args.filter((arg, i) => !arg.startsWith("--") && !args[i - 1]?.startsWith("--"));
if (only && threads !== null) {
  const schedulers: SchedulerName[] = only === "both" ? ["baseline", "allocation"] : [only];
  await runThreaded(workloads[0] ?? "philly", schedulers, threads, tracePath, days);
} else if (only && only !== "both") {
  runOne(workloads[0] ?? "philly", only, tracePath, days);
} else {
  for (const workload of workloads.length > 0 ? workloads : ["philly", "year"]) {
    // A fresh process per run, so one run's heap cannot slow or inflate the next.
    const runs = threads === null ? ["baseline", "allocation"] : [only ?? "both"];
    for (const scheduler of runs) {
      // This bundle again (the environment says so): no loader.
      const child = spawnSync(
        process.execPath,
        [
          semiSpaceFlag,
          process.argv[1]!,
          workload,
          "--scheduler",
          scheduler,
          "--trace",
          tracePath,
          "--days",
          String(days),
          ...(threads === null ? [] : ["--threads", String(threads)]),
        ],
        { stdio: "inherit" },
      );
      if (child.status !== 0) process.exitCode = 1;
    }
  }
}
