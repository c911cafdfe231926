// npx tsx scripts/bench/sim.ts [philly|year|lab] [--trace path] [--scheduler name] [--days N]
// - simulator speed.
// Philly: the whole trace (82k jobs) on 48 nodes x 8 GPUs, each scheduler in a fresh process
// (targets: <= 3 s each, peak RSS < 1 GB). Year: a synthetic year of a 4,096-GPU fleet (~1M jobs,
// target <= 60 s). Lab: the 30-day lab profile. Prints one line per run.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  buildReport,
  convertPhillyTrace,
  generateLabScenario,
  parsePhillyCsv,
  parseScenario,
  runSimulation,
  SCHEDULERS,
  type Scenario,
  type SchedulerName,
} from "../../lib/sim";

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

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const tracePath = flag("trace") ?? DEFAULT_TRACE;
const only = flag("scheduler") as SchedulerName | undefined;
const days = Number(flag("days") ?? 365);
const workloads = args.filter((arg, i) => !arg.startsWith("--") && !args[i - 1]?.startsWith("--"));
if (only) {
  runOne(workloads[0] ?? "philly", only, tracePath, days);
} else {
  for (const workload of workloads.length > 0 ? workloads : ["philly", "year"]) {
    for (const scheduler of ["baseline", "allocation"] as const) {
      // A fresh process per run, so one run's heap cannot slow or inflate the next.
      const child = spawnSync(
        process.execPath,
        [
          "--import",
          "tsx",
          import.meta.filename,
          workload,
          "--scheduler",
          scheduler,
          "--trace",
          tracePath,
          "--days",
          String(days),
        ],
        { stdio: "inherit" },
      );
      if (child.status !== 0) process.exitCode = 1;
    }
  }
}
