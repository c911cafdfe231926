import {
  buildReport,
  buildTimeline,
  formatHumanDuration,
  SCHEDULERS,
  type Scenario,
  type SchedulerName,
  type SimulationReport,
  type Timeline,
} from "../sim";
import { expectPositionals, parseCommandArgs, parseDurationFlag, parseIntegerFlag } from "./args";
import { checkOutput, checkOutputsApart, UsageError, writeOutput, type CliIo } from "./io";
import { loadScenario } from "./scenario-file";
import { chooseThreadCount, MAX_THREADS, simulateSchedulers } from "./simulate-schedulers";
import { formatTable } from "./table";
import { formatFulfilment, formatNumber, formatShare } from "../format";

/** `allot simulate --help`. */
export const SIMULATE_HELP = `Usage: allot simulate <scenario.json> [options]

Runs the event-driven simulator on a scenario and prints a summary table.

Options:
  --scheduler <name>  allocation (default), baseline, both (baseline,allocation), reference, or a
                      comma-separated list of them. reference makes allocation's decisions with
                      the engine's reference pass: slower, for trying a rule written there
  --out <file>        write the JSON report (docs/simulator.md); with several schedulers, one
                      report per name: { baseline, allocation }
  --horizon <d>       stop at this moment (e.g. 30d) instead of the scenario's horizon
  --timeline <file>   write per-GPU run segments (cluster, node, GPU indexes, start, end, job,
                      budget, allocated, end reason) for a timeline picture
  --threads <n>       simulate on n worker threads, one task per scheduler and cluster (at
                      most that many threads); 1 runs everything in this thread. Default: one
                      per two of the machine's cores (V8 takes the other) once there are
                      50,000 jobs to simulate under allocation (a baseline job counts 1/8: it
                      is that much quicker), else 1. The outputs are the same whatever the
                      number
  -h, --help          show this help
`;

/**
 * What the figures cover: the simulated span (per scheduler when they differ: without a horizon
 * each runs until its last job ends), and when the jobs came. A 30-day horizon over a 2-day
 * workload reads as idle GPUs otherwise.
 */
function describePeriod(reports: SimulationReport[], scenario: Scenario): string {
  const spans = reports.map((report) => formatHumanDuration(report.horizonSec));
  const span = spans.every((text) => text === spans[0])
    ? (spans[0] ?? "")
    : reports.map((report, i) => `${report.scheduler} ${spans[i]}`).join(", ");
  const lastSubmitSec = scenario.jobs.reduce((last, job) => Math.max(last, job.submitSec), 0);
  const jobs = `${formatNumber(scenario.jobs.length)} ${scenario.jobs.length === 1 ? "job" : "jobs"}`;
  return (
    `period: ${span} simulated; the scenario's ${jobs} ` +
    `${scenario.jobs.length === 1 ? "was" : "were"} submitted in its first ${formatHumanDuration(lastSubmitSec)}.\n`
  );
}

function summarise(reports: SimulationReport[], scenario: Scenario): string {
  const summary = formatTable(
    [
      "scheduler",
      "utilisation",
      "unallocated",
      "fulfilment",
      "hour by hour",
      "preemptions",
      "drains",
      "jobs",
    ],
    reports.map((report) => [
      report.scheduler,
      formatShare(report.utilisation, "-"),
      formatShare(report.unallocatedShare, "-"),
      formatFulfilment(report.fulfilment, "-"),
      formatFulfilment(report.hourlyFulfilment, "-"),
      formatNumber(report.preemptions),
      formatNumber(report.automatedDrains),
      formatNumber(report.jobs.length),
    ]),
    ["left", "right", "right", "right", "right", "right", "right", "right"],
  );
  const legend =
    "fulfilment: of the GPU-hours each funded budget was entitled to over the run, the share it " +
    "received (a budget counts at most 100%);\nhour by hour: the same, hour by hour (hours " +
    "received beyond one hour's entitlement make up for no other hour). See docs/fulfilment.md.\n";
  const waits = formatTable(
    ["scheduler", "class", "jobs", "wait p50", "wait p90"],
    reports.flatMap((report) =>
      Object.entries(report.classes).map(([name, summary]) => [
        report.scheduler,
        name,
        formatNumber(summary.jobs),
        formatHumanDuration(summary.waitP50Sec),
        formatHumanDuration(summary.waitP90Sec),
      ]),
    ),
    ["left", "left", "right", "right", "right"],
  );
  return `${summary}${legend}${describePeriod(reports, scenario)}\n${waits}`;
}

/** The `--scheduler` value as policy names: one name, `both`, or a comma-separated list. */
function parseSchedulers(choice: string): SchedulerName[] {
  const names = choice === "both" ? ["baseline", "allocation"] : choice.split(",");
  const unknown = names.find((name) => !Object.hasOwn(SCHEDULERS, name));
  if (unknown !== undefined || new Set(names).size !== names.length) {
    throw new UsageError(
      `simulate: --scheduler must be allocation, baseline, reference, both, or a list of them without repeats, got "${choice}"`,
    );
  }
  return names as SchedulerName[];
}

/** `allot simulate`: resolves to the exit code. */
export async function runSimulateCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommandArgs("simulate", argv, {
    scheduler: { type: "string" },
    out: { type: "string" },
    timeline: { type: "string" },
    horizon: { type: "string" },
    threads: { type: "string" },
  });
  if (args.values.help) {
    io.stdout(SIMULATE_HELP);
    return 0;
  }
  const [path] = expectPositionals("simulate", args, ["scenario"]);
  const names = parseSchedulers((args.values.scheduler as string | undefined) ?? "allocation");
  const threadsFlag = args.values.threads as string | undefined;
  const requestedThreads =
    threadsFlag === undefined
      ? undefined
      : parseIntegerFlag("simulate", "threads", threadsFlag, 1, MAX_THREADS);
  const horizon = args.values.horizon as string | undefined;
  const horizonSec =
    horizon === undefined ? null : parseDurationFlag("simulate", "horizon", horizon);
  if (horizonSec === 0) {
    throw new UsageError(
      `simulate: --horizon ${horizon} simulates nothing: give a moment above 0, e.g. 30d`,
    );
  }
  checkOutputsApart(
    "simulate",
    { what: "scenario", path: path as string },
    { out: args.values.out, timeline: args.values.timeline },
  );
  const loaded = loadScenario(io, path as string);
  const scenario = horizonSec === null ? loaded : { ...loaded, horizonSec };
  for (const output of [args.values.out, args.values.timeline]) {
    if (typeof output === "string") checkOutput(io, output);
  }
  const threads = chooseThreadCount(
    { jobs: scenario.jobs.length, clusters: scenario.clusters.length, schedulers: names },
    requestedThreads,
  );
  const reports: SimulationReport[] = [];
  const timelines: Timeline[] = [];
  await simulateSchedulers(io, scenario, names, threads, (result) => {
    reports.push(buildReport(scenario, result));
    if (args.values.timeline) timelines.push(buildTimeline(result));
  });
  const pack = <T extends { scheduler: string }>(items: T[]): unknown =>
    items.length === 1 ? items[0] : Object.fromEntries(items.map((item) => [item.scheduler, item]));
  if (typeof args.values.out === "string")
    writeOutput(io, args.values.out, `${JSON.stringify(pack(reports), null, 2)}\n`);
  if (typeof args.values.timeline === "string") {
    writeOutput(io, args.values.timeline, `${JSON.stringify(pack(timelines))}\n`);
  }
  io.stdout(summarise(reports, scenario));
  return 0;
}
