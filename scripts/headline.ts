// npx tsx scripts/headline.ts [--days 30] [--seeds 1,2,3] [--profiles lab-whole-node,lab]
//                             [--dir /tmp/headline] [--reuse] [--policy allocation|reference]
// - issue #32's "done when" figures: for each profile and seed, generates the scenario, runs
// `allot simulate --scheduler both` (sequentially, through the CLI bundle) and prints per run the
// debug wait p90 against 10 min and 10x baseline, the utilisation gap, period fulfilment, the
// worst funded budget and training wait p50, each with pass or fail. The issue's "and >=
// baseline + 5 points" follows both the lab's fulfilment and the worst funded budget; it is
// judged on both. `--reuse` reads reports already in --dir instead of simulating again.
// `--policy reference` judges the `reference` policy (the engine's reference pass at every pass)
// instead of `allocation`: the same figures, about six times slower, and the place to try a rule
// before the fast pass has it (docs/simulations.md).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SimulationReport } from "../lib/sim";
import { formatMarkdownTable } from "./sim-tables/markdown";

type BothReports = { baseline: SimulationReport; allocation: SimulationReport };

/** One run's figures against issue #32's targets. */
export type HeadlineRow = {
  run: string;
  debugP90Sec: number;
  baselineDebugP90Sec: number;
  utilisation: number;
  baselineUtilisation: number;
  fulfilment: number;
  baselineFulfilment: number;
  worstBudget: { path: string; fulfilment: number } | null;
  baselineWorstFulfilment: number | null;
  trainingP50Sec: number;
  baselineTrainingP50Sec: number;
  checks: Record<string, boolean>;
};

/** The funded budget (share above 0, something entitled) that received least of it. */
export function findWorstFunded(
  report: SimulationReport,
): { path: string; fulfilment: number } | null {
  let worst: { path: string; fulfilment: number } | null = null;
  for (const budget of report.budgets) {
    if (budget.effectiveShare <= 0 || budget.fulfilment === null) continue;
    if (worst === null || budget.fulfilment < worst.fulfilment) {
      worst = { path: budget.path, fulfilment: budget.fulfilment };
    }
  }
  return worst;
}

/** The figures of issue #32's "done when" for one `--scheduler both` report. */
export function judgeRun(run: string, reports: BothReports): HeadlineRow {
  const { baseline, allocation } = reports;
  const debug = allocation.classes.debug!;
  const baseDebug = baseline.classes.debug!;
  const training = allocation.classes.training!;
  const baseTraining = baseline.classes.training!;
  const worst = findWorstFunded(allocation);
  const baseWorst = findWorstFunded(baseline);
  const worstFulfilment = worst?.fulfilment ?? 1;
  const baseWorstFulfilment = baseWorst?.fulfilment ?? 0;
  // Null only when nothing was owed, which no headline workload is: judged as 0, a failure.
  const fulfilment = allocation.fulfilment ?? 0;
  const baselineFulfilment = baseline.fulfilment ?? 0;
  return {
    run,
    debugP90Sec: debug.waitP90Sec,
    baselineDebugP90Sec: baseDebug.waitP90Sec,
    utilisation: allocation.utilisation,
    baselineUtilisation: baseline.utilisation,
    fulfilment,
    baselineFulfilment,
    worstBudget: worst,
    baselineWorstFulfilment: baseWorst?.fulfilment ?? null,
    trainingP50Sec: training.waitP50Sec,
    baselineTrainingP50Sec: baseTraining.waitP50Sec,
    checks: {
      "debug p90 <= 10m": debug.waitP90Sec <= 600,
      "debug 10x": debug.waitP90Sec * 10 <= baseDebug.waitP90Sec,
      "util gap <= 1pt": allocation.utilisation >= baseline.utilisation - 0.01,
      "fulfilment >= 95%": fulfilment >= 0.95,
      "worst >= 90%": worstFulfilment >= 0.9,
      "worst >= base + 5pt": worstFulfilment >= baseWorstFulfilment + 0.05,
      ">= base + 5pt": fulfilment >= baselineFulfilment + 0.05,
      "training p50": training.waitP50Sec <= baseTraining.waitP50Sec,
    },
  };
}

function formatWait(sec: number): string {
  if (sec < 60) return `${Math.round(sec)}s`;
  if (sec < 3600)
    return `${Math.floor(sec / 60)}m ${String(Math.round(sec % 60)).padStart(2, "0")}s`;
  if (sec < 86_400)
    return `${Math.floor(sec / 3600)}h ${String(Math.floor((sec % 3600) / 60)).padStart(2, "0")}m`;
  return `${Math.floor(sec / 86_400)}d ${Math.floor((sec % 86_400) / 3600)}h`;
}

const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;
const mark = (ok: boolean | undefined): string => (ok ? "ok" : "FAIL");

/** The markdown table of the rows, one per run. */
export function formatHeadlineRows(rows: readonly HeadlineRow[]): string {
  return formatMarkdownTable(
    [
      "run",
      "debug p90 (base)",
      "<=10m, 10x",
      "util (base)",
      "<=1pt",
      "fulfilment (base)",
      ">=95%, +5pt",
      "worst funded (base)",
      ">=90%, +5pt",
      "training p50 (base)",
      "ok",
    ],
    rows.map((row) => [
      row.run,
      `${formatWait(row.debugP90Sec)} (${formatWait(row.baselineDebugP90Sec)})`,
      `${mark(row.checks["debug p90 <= 10m"])}, ${mark(row.checks["debug 10x"])}`,
      `${percent(row.utilisation)} (${percent(row.baselineUtilisation)})`,
      mark(row.checks["util gap <= 1pt"]),
      `${percent(row.fulfilment)} (${percent(row.baselineFulfilment)})`,
      `${mark(row.checks["fulfilment >= 95%"])}, ${mark(row.checks[">= base + 5pt"])}`,
      `${row.worstBudget ? `${percent(row.worstBudget.fulfilment)} ${row.worstBudget.path}` : "-"} (${
        row.baselineWorstFulfilment === null ? "-" : percent(row.baselineWorstFulfilment)
      })`,
      `${mark(row.checks["worst >= 90%"])}, ${mark(row.checks["worst >= base + 5pt"])}`,
      `${formatWait(row.trainingP50Sec)} (${formatWait(row.baselineTrainingP50Sec)})`,
      mark(row.checks["training p50"]),
    ]),
    ["left", "right", "left", "right", "left", "right", "left", "left", "left", "right", "left"],
  );
}

function main(argv: string[]): void {
  const flag = (name: string, fallback: string): string => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 && argv[at + 1] ? argv[at + 1]! : fallback;
  };
  const days = Number(flag("days", "30"));
  const seeds = flag("seeds", "1,2,3").split(",").map(Number);
  const profiles = flag("profiles", "lab-whole-node,lab").split(",");
  const dir = flag("dir", "/tmp/headline");
  const isReuse = argv.includes("--reuse");
  const policy = flag("policy", "allocation");
  if (policy !== "allocation" && policy !== "reference") {
    throw new Error(`--policy must be allocation or reference, got "${policy}"`);
  }
  mkdirSync(dir, { recursive: true });
  const cli = join(import.meta.dirname, "..", "bin", "allot.mjs");
  const rows: HeadlineRow[] = [];
  for (const profile of profiles) {
    for (const seed of seeds) {
      const name = `${profile}-${days}d-s${seed}`;
      const scenarioPath = join(dir, `${name}.json`);
      const reportPath = join(dir, `${name}-${policy}-report.json`);
      if (!isReuse || !existsSync(reportPath)) {
        const started = Date.now();
        execFileSync(
          process.execPath,
          [
            cli,
            "generate",
            "--profile",
            profile,
            "--days",
            String(days),
            "--seed",
            String(seed),
            "--out",
            scenarioPath,
          ],
          { stdio: "inherit" },
        );
        execFileSync(
          process.execPath,
          [cli, "simulate", scenarioPath, "--scheduler", `baseline,${policy}`, "--out", reportPath],
          { stdio: ["ignore", "ignore", "inherit"] },
        );
        console.error(`${name}: simulated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      const reports = JSON.parse(readFileSync(reportPath, "utf8")) as Record<
        string,
        SimulationReport
      >;
      rows.push(judgeRun(name, { baseline: reports.baseline!, allocation: reports[policy]! }));
    }
  }
  console.log(formatHeadlineRows(rows));
  const failed = rows.filter((row) => Object.values(row.checks).some((ok) => !ok)).length;
  console.log(`\n${rows.length - failed} of ${rows.length} runs meet every target.`);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
