import { budgetTreeAnswer, type BudgetTreeAnswer } from "./api-answers";
import type { LiveDeps } from "./api-config";
import { expectPositionals, parseCommandArgs } from "./args";
import type { CliIo } from "./io";
import { connect, LIVE_HELP, LIVE_OPTIONS, printJson } from "./live-command";
import { formatTable, type Align } from "./table";
import { formatNumber, formatPercent } from "../format";

/** `allot budgets --help`. */
export const BUDGETS_HELP = `Usage: allot budgets [--json]

The budget tree as it is in force: each budget's weight, its fraction among its siblings, its
effective share of every cluster (the product of fractions from the root), the GPU-hours a
week that share is of each cluster, and its leads. --json adds ids, members and versions.

${LIVE_HELP}`;

/** The budget tree as `allot budgets` prints it, one GPU-h/week column per cluster. */
export function formatBudgets(answer: BudgetTreeAnswer): string {
  const clusterHeaders = answer.clusters.map((cluster) => `${cluster.name} GPU-h/wk`);
  const rows = answer.nodes.map((node) => [
    `${"  ".repeat(node.depth)}${node.name}`,
    formatNumber(node.weight, Number.isInteger(node.weight) ? 0 : 2),
    node.depth === 0 ? "-" : node.fraction.toFixed(4),
    formatPercent(node.effectiveShare),
    ...answer.clusters.map((cluster) => formatNumber(node.gpuHoursPerWeek[cluster.name] ?? 0)),
    node.leads.map((lead) => lead.name).join(", "),
  ]);
  const align: Align[] = [
    "left",
    "right",
    "right",
    "right",
    ...answer.clusters.map((): Align => "right"),
    "left",
  ];
  return formatTable(
    ["BUDGET", "WEIGHT", "FRACTION", "EFF.SHARE", ...clusterHeaders, "LEADS"],
    rows,
    align,
  );
}

/** `allot budgets`: returns the exit code. */
export async function runBudgetsCommand(
  argv: string[],
  io: CliIo,
  deps: LiveDeps,
): Promise<number> {
  const args = parseCommandArgs("budgets", argv, LIVE_OPTIONS);
  if (args.values.help) {
    io.stdout(BUDGETS_HELP);
    return 0;
  }
  expectPositionals("budgets", args, []);
  const answer = await connect(deps, args).get("/api/v1/budgets", budgetTreeAnswer);
  if (args.values.json) printJson(io, answer);
  else io.stdout(formatBudgets(answer));
  return 0;
}
