// npx tsx scripts/sim-tables.ts <scenario.json> <both-report.json> [--group-depth N]
// - prints the markdown tables of docs/simulations.md from a `simulate --scheduler both --out`
// report: headline figures, queue wait by class, per-budget rows (leaves summed to the first N
// parts of their path, default 2) and the shape of each budget's demand (from the scenario).
import { readFileSync } from "node:fs";
import { parseScenario, type Scenario } from "../lib/sim";
import { describeDemand, formatDemandTable } from "./sim-tables/demand-table";
import { formatUnmetTable } from "./sim-tables/unmet-hours";
import {
  formatBudgetTable,
  formatHeadlineTable,
  formatWaitTable,
  type BothReports,
} from "./sim-tables/report-tables";

function fail(message: string): never {
  console.error(`sim-tables: ${message}`);
  process.exit(1);
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as unknown;
  } catch (error) {
    fail(`${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function loadScenario(path: string): Scenario {
  const result = parseScenario(readJson(path));
  if (!result.ok) fail(`${path}: not a valid scenario (${result.issues.length} problems)`);
  return result.value;
}

function loadReports(path: string): BothReports {
  const value = readJson(path) as Partial<BothReports> | null;
  const isReport = (report: unknown) =>
    typeof report === "object" && report !== null && "budgets" in report && "classes" in report;
  if (!isReport(value?.baseline) || !isReport(value?.allocation)) {
    fail(`${path}: expected { baseline, allocation } from simulate --scheduler both --out`);
  }
  return value as BothReports;
}

const args = process.argv.slice(2);
const depthAt = args.indexOf("--group-depth");
const depth = depthAt >= 0 ? Number(args[depthAt + 1]) : 2;
const [scenarioPath, reportPath] =
  depthAt >= 0 ? args.filter((_, i) => i !== depthAt && i !== depthAt + 1) : args;
if (!scenarioPath || !reportPath || !Number.isInteger(depth) || depth < 1) {
  fail("usage: sim-tables <scenario.json> <both-report.json> [--group-depth N (>= 1)]");
}
const scenario = loadScenario(scenarioPath);
const reports = loadReports(reportPath);
const lastSubmitSec = Math.max(0, ...scenario.jobs.map((job) => job.submitSec));
const gpus = scenario.clusters.reduce((sum, c) => sum + c.nodes * c.gpusPerNode, 0);
const lastSubmitDay = (lastSubmitSec / 86_400).toFixed(1);

console.log(`Headline (${scenario.jobs.length} jobs):\n`);
console.log(
  formatHeadlineTable(reports, {
    sec: lastSubmitSec,
    gpus,
    label: `day ${lastSubmitDay} (last submission)`,
  }),
);
console.log("Queue wait (first start minus submit) by class:\n");
console.log(formatWaitTable(reports));
console.log(
  `Per budget (leaves summed to ${depth} part${depth === 1 ? "" : "s"} of their path):\n`,
);
console.log(formatBudgetTable(reports, depth));
console.log("What each budget asked for (from the scenario, the same under both schedulers):\n");
console.log(formatDemandTable(describeDemand(scenario, reports.allocation.budgets, depth)));
console.log("Where hourly entitlement went unmet (recomputed from the runs):\n");
console.log(formatUnmetTable(scenario, reports));
