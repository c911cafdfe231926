import { fairShareFactor, rankBudgets } from "../engine";
import {
  formatLevelFairShare,
  formatNumber,
  formatPercent,
  formatSimMoment,
  formatUsageRatio,
} from "../format";
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

/** `allot shares --help`. */
export const SHARES_HELP = `Usage: allot shares <scenario.json> --at <duration> [options]

Simulates the scenario with the allocation scheduler up to --at and prints the budget tree of
one cluster then, like sshare -l: weight, fraction, effective share, usage in the window
(GPU-hours), usage of share, level fair-share LF, leaf rank and fair-share factor. Siblings are
listed as Fair Tree visits them (highest LF first), so leaf ranks read down the page.

Options:
  --at <duration>    moment to show, e.g. 36h or 3d (from the scenario start); at most its horizon
  --cluster <name>   cluster to show (default: the first in the file)
  --json             print { cluster, atSec, nodes: [...] } (docs/cli.md)
  -h, --help         show this help
`;

/** `allot shares`: returns the exit code. */
export function runSharesCommand(argv: string[], io: CliIo): number {
  const args = parseCommandArgs("shares", argv, {
    at: { type: "string" },
    cluster: { type: "string" },
    json: { type: "boolean" },
  });
  if (args.values.help) {
    io.stdout(SHARES_HELP);
    return 0;
  }
  if (args.positionals.length === 0) {
    throw new UsageError(
      `shares: missing <scenario> (a scenario file; a server's live budget tree is allot sshare)`,
    );
  }
  const [path] = expectPositionals("shares", args, ["scenario"]);
  const atSec = parseDurationFlag("shares", "at", requireString("shares", args, "at"));
  const scenario = loadScenario(io, path as string);
  checkMomentInScenario("shares", scenario, atSec);
  const cluster = pickCluster("shares", scenario, args.values.cluster as string | undefined);
  const moment = simulateUntil(scenario, cluster, atSec);
  const capacityGpus = cluster.nodes * cluster.gpusPerNode;
  const ranking = rankBudgets(moment.tree, moment.result.view.usageByLeaf, {
    capacityGpus,
    windowSec: scenario.lookbackSec,
  });
  const ordered = rowsLikeFairTree(ranking, moment.tree);
  const rows = ordered.map((row) => ({
    path: row.path,
    isLeaf: row.isLeaf,
    weight: row.weight,
    fraction: row.fraction,
    effectiveShare: row.effectiveShare,
    usageGpuSeconds: row.usageGpuSeconds,
    usageRatio: row.usageRatio,
    levelFairShare: row.levelFairShare === Infinity ? "inf" : row.levelFairShare,
    rank: row.rank,
    fairShareFactor: row.rank === null ? null : fairShareFactor(row.rank, ranking.leafCount),
  }));
  if (args.values.json) {
    io.stdout(`${JSON.stringify({ cluster: cluster.name, atSec, nodes: rows }, null, 2)}\n`);
    return 0;
  }
  const depthOf = (path: string): number => (path === "" ? 0 : path.split("/").length);
  io.stdout(
    `Cluster ${cluster.name} (${formatNumber(capacityGpus)} GPUs) at ${formatSimMoment(atSec)}\n\n`,
  );
  io.stdout(
    formatTable(
      [
        "budget",
        "weight",
        "fraction",
        "eff. share",
        "usage GPU-h",
        "usage of share",
        "LF",
        "rank",
        "factor",
      ],
      ordered.map((row, i) => [
        `${"  ".repeat(depthOf(row.path))}${row.path === "" ? row.name : row.name}`,
        formatNumber(row.weight, Number.isInteger(row.weight) ? 0 : 2),
        row.path === "" ? "-" : row.fraction.toFixed(4),
        formatPercent(row.effectiveShare),
        formatNumber(row.usageGpuSeconds / 3600, 1),
        formatUsageRatio(row.usageRatio),
        row.path === "" ? "-" : formatLevelFairShare(row.levelFairShare),
        row.rank === null ? "" : String(row.rank),
        rows[i]?.fairShareFactor == null ? "" : (rows[i]?.fairShareFactor as number).toFixed(4),
      ]),
      ["left", "right", "right", "right", "right", "right", "right", "right", "right"],
    ),
  );
  return 0;
}
