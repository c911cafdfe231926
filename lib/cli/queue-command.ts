import { explainReason, rankBudgets, runSchedulePass, type Reason } from "../engine";
import { formatLevelFairShare, formatNumber, formatSimMoment, formatUsageRatio } from "../format";
import { formatHumanDuration, type JobRecord } from "../sim";
import { expectPositionals, parseCommandArgs, parseDurationFlag, requireString } from "./args";
import {
  checkMomentInScenario,
  pickCluster,
  rowsLikeFairTree,
  simulateUntil,
} from "./cluster-moment";
import { UsageError, type CliIo } from "./io";
import { loadScenario } from "./scenario-file";
import { formatTable } from "./table";

/** `allot queue --help`. */
export const QUEUE_HELP = `Usage: allot queue <scenario.json> --at <duration> --cluster <name> [--json]

Simulates the scenario with the allocation scheduler up to --at and lists the cluster's running
and pending jobs in rank order, each with the reason it runs or waits (like squeue + sprio),
then the budget tree as Fair Tree walks it (siblings by level fair-share, like sshare -l), which
shows why a budget ranks where it does. "age" is the time since the job was submitted.

Options:
  --at <duration>    moment to show, e.g. 36h or 3d; at most the scenario's horizon
  --cluster <name>   cluster to show
  --json             print { cluster, atSec, jobs: [...], tree: [...] } with machine-readable
                     reasons
  -h, --help         show this help
`;

type QueueRow = {
  id: string;
  state: "running" | "pending";
  budget: string;
  rank: number | null;
  user: string;
  gpus: number;
  priority: string;
  submitSec: number;
  startSec: number | null;
  protectedUntilSec: number | null;
  nodes: number[];
  reason: unknown;
  explanation: string;
};

/** `allot queue`: returns the exit code. */
export function runQueueCommand(argv: string[], io: CliIo): number {
  const args = parseCommandArgs("queue", argv, {
    at: { type: "string" },
    cluster: { type: "string" },
    json: { type: "boolean" },
  });
  if (args.values.help) {
    io.stdout(QUEUE_HELP);
    return 0;
  }
  if (args.positionals.length === 0) {
    throw new UsageError(
      `queue: missing <scenario> (a scenario file; a server's live queue is allot squeue)`,
    );
  }
  const [path] = expectPositionals("queue", args, ["scenario"]);
  const atSec = parseDurationFlag("queue", "at", requireString("queue", args, "at"));
  const clusterName = requireString("queue", args, "cluster");
  const scenario = loadScenario(io, path as string);
  checkMomentInScenario("queue", scenario, atSec);
  const cluster = pickCluster("queue", scenario, clusterName);
  const { tree, result } = simulateUntil(scenario, cluster, atSec);
  const view = result.view;
  const ranking = rankBudgets(tree, view.usageByLeaf, {
    capacityGpus: cluster.nodes * cluster.gpusPerNode,
    windowSec: scenario.lookbackSec,
  });
  // What the engine would say now about every waiting job (nothing is applied).
  const pass = runSchedulePass({
    cluster: view.cluster,
    nowSec: atSec,
    tree,
    ranking,
    leafUsage: view.usageByLeaf,
    runs: view.running,
    pending: view.pending,
  });
  const byId = new Map<string, JobRecord>(result.records.map((record) => [record.job.id, record]));
  const rankOf = (budget: string): number | null => ranking.rankByBudgetId[budget] ?? null;
  const rows: QueueRow[] = [];
  const explain = (reason: unknown): string =>
    reason ? explainReason(reason as Reason, { formatTime: formatSimMoment }) : "";
  for (const run of [...view.running].sort(
    (a, b) =>
      (rankOf(a.budgetId) ?? 1e9) - (rankOf(b.budgetId) ?? 1e9) ||
      a.startSec - b.startSec ||
      (a.id < b.id ? -1 : 1),
  )) {
    const record = byId.get(run.jobId);
    const reason = record?.runs.at(-1)?.startReason;
    const isProtected = run.protectedUntilSec > atSec;
    // Unallocated runs are never protected, which their start sentence already says.
    const protection = !run.isAllocated
      ? ""
      : isProtected
        ? ` Protected for ${formatHumanDuration(run.protectedUntilSec - atSec)} more.`
        : " No longer protected.";
    rows.push({
      id: run.jobId,
      state: "running",
      budget: run.budgetId,
      rank: rankOf(run.budgetId),
      user: run.userId,
      gpus: run.gpus,
      priority: run.priority,
      submitSec: record?.job.submitSec ?? run.startSec,
      startSec: run.startSec,
      protectedUntilSec: run.protectedUntilSec,
      nodes: run.placement.map((slice) => slice.node),
      reason: reason ?? null,
      explanation: `${explain(reason)}${protection}`.trim(),
    });
  }
  const pendingById = new Map(view.pending.map((job) => [job.id, job]));
  const decisions = [
    ...pass.starts.map((start) => ({
      jobId: start.jobId,
      reason: start.reason as unknown,
      prefix: "Would start now: ",
    })),
    ...pass.waiting.map((wait) => ({
      jobId: wait.jobId,
      reason: wait.reason as unknown,
      prefix: "",
    })),
  ];
  for (const decision of decisions) {
    const job = pendingById.get(decision.jobId);
    if (!job) continue;
    rows.push({
      id: job.id,
      state: "pending",
      budget: job.budgetId,
      rank: rankOf(job.budgetId),
      user: job.userId,
      gpus: job.gpus,
      priority: job.priority,
      submitSec: job.submitSec,
      startSec: null,
      protectedUntilSec: null,
      nodes: [],
      reason: decision.reason,
      explanation: `${decision.prefix}${explain(decision.reason)}`,
    });
  }
  const walked = rowsLikeFairTree(ranking, tree).filter((row) => row.path !== "");
  const treeRows = walked.map((row) => ({
    path: row.path,
    weight: row.weight,
    usageRatio: row.usageRatio,
    levelFairShare: row.levelFairShare === Infinity ? "inf" : row.levelFairShare,
    rank: row.rank,
  }));
  if (args.values.json) {
    const body = { cluster: cluster.name, atSec, jobs: rows, tree: treeRows };
    io.stdout(`${JSON.stringify(body, null, 2)}\n`);
    return 0;
  }
  const running = rows.filter((row) => row.state === "running").length;
  io.stdout(
    `Cluster ${cluster.name} at ${formatSimMoment(atSec)}: ${formatNumber(running)} running, ${formatNumber(rows.length - running)} pending\n\n`,
  );
  io.stdout(
    formatTable(
      ["job", "st", "budget", "rank", "user", "gpus", "prio", "age", "reason"],
      rows.map((row) => [
        row.id,
        row.state === "running" ? "R" : "PD",
        row.budget,
        row.rank === null ? "-" : String(row.rank),
        row.user,
        String(row.gpus),
        row.priority,
        formatHumanDuration(atSec - row.submitSec),
        row.explanation,
      ]),
      ["left", "left", "left", "right", "left", "right", "left", "right", "left"],
    ),
  );
  io.stdout(`\nBudgets as Fair Tree ranks them (siblings by level fair-share, LF):\n\n`);
  io.stdout(
    formatTable(
      ["budget", "weight", "usage of share", "LF", "rank"],
      walked.map((row) => [
        `${"  ".repeat(row.path.split("/").length - 1)}${row.name}`,
        formatNumber(row.weight, Number.isInteger(row.weight) ? 0 : 2),
        formatUsageRatio(row.usageRatio),
        formatLevelFairShare(row.levelFairShare),
        row.rank === null ? "" : String(row.rank),
      ]),
      ["left", "right", "right", "right", "right"],
    ),
  );
  return 0;
}
