import { fairShareFactor } from "../engine";
import {
  formatDateTime,
  formatLevelFairShare,
  formatNumber,
  formatPercent,
  formatSpan,
  formatUsageRatio,
} from "../format";
import { clusterQueueAnswer, type ClusterQueueAnswer, type ShareRowAnswer } from "./api-answers";
import type { LiveDeps } from "./api-config";
import { expectPositionals, parseCommandArgs } from "./args";
import type { CliIo } from "./io";
import {
  clusterNames,
  NO_CLUSTERS_LINE,
  connect,
  LIVE_HELP,
  LIVE_OPTIONS,
  printJson,
  queuePath,
} from "./live-command";
import { formatTable } from "./table";

/** `allot sshare --help`. */
export const SSHARE_HELP = `Usage: allot sshare [--cluster <name>] [--json]

The budget tree of a cluster (every cluster without --cluster) with its live usage, like
sshare -l: weight, fraction among siblings, effective share, usage over the cluster's window
(GPU-hours), usage of share, level fair-share LF (share / usage among siblings, "inf" when
unused), the leaf's rank and its fair-share factor. Rows are in the order Fair Tree walks them,
so ranks read down the page. As of the cluster's last scheduling pass.

Options:
  --cluster <name>   one cluster
${LIVE_HELP}`;

/** One node of the tree with its fair-share factor (leaves with a rank). */
export type ShareRow = ShareRowAnswer & { fairShareFactor: number | null };

/** The tree's rows with each ranked leaf's fair-share factor ((leaves - rank + 1) / leaves). */
export function withFactors(tree: ShareRowAnswer[]): ShareRow[] {
  const leafCount = tree.filter((row) => row.isLeaf).length;
  return tree.map((row) => ({
    ...row,
    fairShareFactor: row.rank === null ? null : fairShareFactor(row.rank, leafCount),
  }));
}

/** One cluster's sshare section: a heading and the tree as a table. */
export function formatSshare(queue: ClusterQueueAnswer): string {
  const heading = `Cluster ${queue.cluster.name} (${formatNumber(queue.cluster.gpus)} GPUs), usage over the last ${formatSpan(queue.lookbackSec)}, at ${formatDateTime(queue.nowSec)}\n\n`;
  const rows = withFactors(queue.tree).map((row) => {
    const isRoot = row.path === "";
    return [
      `${"  ".repeat(row.depth)}${row.name}`,
      row.weight === undefined
        ? "-"
        : formatNumber(row.weight, Number.isInteger(row.weight) ? 0 : 2),
      isRoot || row.fraction === undefined ? "-" : row.fraction.toFixed(4),
      formatPercent(row.effectiveShare),
      formatNumber(row.usageGpuSeconds / 3600, 1),
      formatUsageRatio(row.usageRatio),
      isRoot ? "-" : formatLevelFairShare(row.levelFairShare),
      row.rank === null ? "" : String(row.rank),
      row.fairShareFactor === null ? "" : row.fairShareFactor.toFixed(4),
    ];
  });
  const table =
    queue.tree.length === 0
      ? "No ranking yet: the cluster has not been scheduled since it started.\n"
      : formatTable(
          [
            "BUDGET",
            "WEIGHT",
            "FRACTION",
            "EFF.SHARE",
            "USAGE GPU-h",
            "USAGE/SHARE",
            "LF",
            "RANK",
            "FACTOR",
          ],
          rows,
          ["left", "right", "right", "right", "right", "right", "right", "right", "right"],
        );
  return heading + table;
}

/** `allot sshare`: returns the exit code. */
export async function runSshareCommand(argv: string[], io: CliIo, deps: LiveDeps): Promise<number> {
  const args = parseCommandArgs("sshare", argv, {
    ...LIVE_OPTIONS,
    cluster: { type: "string", short: "M" },
  });
  if (args.values.help) {
    io.stdout(SSHARE_HELP);
    return 0;
  }
  expectPositionals("sshare", args, []);
  const client = connect(deps, args);
  const queues: ClusterQueueAnswer[] = [];
  for (const name of await clusterNames(client, args.values.cluster)) {
    queues.push(await client.get(queuePath(name), clusterQueueAnswer));
  }
  if (args.values.json) {
    printJson(io, {
      clusters: queues.map((queue) => ({
        cluster: queue.cluster.name,
        gpus: queue.cluster.gpus,
        nowSec: queue.nowSec,
        lookbackSec: queue.lookbackSec,
        nodes: withFactors(queue.tree),
      })),
    });
    return 0;
  }
  io.stdout(queues.length === 0 ? NO_CLUSTERS_LINE : queues.map(formatSshare).join("\n"));
  return 0;
}
