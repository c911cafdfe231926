// `allot nodes`: a cluster's nodes, like sinfo -N, and an admin's drain, down and resume, like
// scontrol update State=... (the same route as the nodes page's buttons).
import { plural } from "../engine/explain-words";
import { formatNumber, formatSpan, liveTimeFormatter } from "../format";
import { actorPhrase } from "../sentences/history";
import {
  clusterNodesAnswer,
  nodeHealthAnswer,
  type ClusterNodesAnswer,
  type NodeAnswer,
} from "./api-answers";
import type { LiveDeps } from "./api-config";
import { ApiRequestError } from "./api-errors";
import { parseCommandArgs } from "./args";
import { UsageError, type CliIo } from "./io";
import {
  clusterNames,
  connect,
  LIVE_HELP,
  LIVE_OPTIONS,
  NO_CLUSTERS_LINE,
  printJson,
} from "./live-command";
import { formatTable, type Align } from "./table";

/** `allot nodes --help`. */
export const NODES_HELP = `Usage: allot nodes [--cluster <name>] [--unhealthy] [--json]
       allot nodes drain <node>... --cluster <name> --reason <text>
       allot nodes down <node>... --cluster <name> [--reason <text>]
       allot nodes resume <node>... --cluster <name> [--reason <text>]

Without a verb, each node of a cluster (every cluster without --cluster), like sinfo -N: its
health, GPUs in use, runs, how long it has been so, who set it and why; a draining node says
when its last protected run ends. As of the cluster's last scheduling pass.

drain, down and resume change nodes' health (admins only), as the nodes page's buttons do:
drain preempts the node's unprotected runs at once and lets its protected ones finish; down
also ends the protected ones; resume makes it healthy again. <node> is the executor's name for
it (gpu04) or Allot's index (4); a name that reads as a number is a name first. Nodes are
changed in the order given; the first refusal stops the rest. On a SLURM cluster the bridge drains or resumes the node in SLURM too.

Options:
  --cluster <name>   one cluster (required with a verb)
  --unhealthy        only nodes draining or down
  --reason <text>    why, kept in the node's history (required to drain)
${LIVE_HELP}`;

const NODES_OPTIONS = {
  ...LIVE_OPTIONS,
  cluster: { type: "string" },
  unhealthy: { type: "boolean" },
  reason: { type: "string" },
} as const;

/** The verbs and the health each sets. */
const HEALTH_OF_VERB = { drain: "draining", down: "down", resume: "healthy" } as const;
type Verb = keyof typeof HEALTH_OF_VERB;

function isVerb(word: string | undefined): word is Verb {
  return word !== undefined && Object.hasOwn(HEALTH_OF_VERB, word);
}

/** The path of a cluster's nodes. */
function nodesPath(cluster: string): string {
  return `/api/v1/clusters/${encodeURIComponent(cluster)}/nodes`;
}

/** What a node's NOTE cell says: who set its state and why, and when a drain is done. */
function nodeNote(node: NodeAnswer, clock: (sec: number) => string): string {
  const parts: string[] = [];
  const change = node.lastChange;
  if (change) {
    parts.push(
      `set ${actorPhrase(change.actor)} at ${clock(change.atSec)}${change.reason ? `: ${change.reason}` : ""}`,
    );
  }
  if (node.emptyBySec !== null) {
    parts.push(`empty by ~${clock(node.emptyBySec)} (when its last protected run ends)`);
  }
  if (node.drainedSec !== null) {
    parts.push(`empty since ${clock(node.drainedSec)}, ready for maintenance`);
  }
  return parts.join("; ");
}

/** "128 nodes, 1,024 GPUs: 125 healthy, 2 draining, 1 down; 1,000 GPUs in use". */
function nodesSummary(nodes: NodeAnswer[]): string {
  const count = (health: string) => nodes.filter((node) => node.health === health).length;
  const gpus = nodes.reduce((sum, node) => sum + node.gpus, 0);
  const used = nodes.reduce((sum, node) => sum + node.usedGpus, 0);
  const healths = [`${count("healthy")} healthy`, `${count("draining")} draining`];
  if (count("down") > 0) healths.push(`${count("down")} down`);
  return `${plural(nodes.length, "node", "nodes")}, ${formatNumber(gpus)} GPUs: ${healths.join(", ")}; ${formatNumber(used)} GPUs in use`;
}

/** One cluster's section: a summary line and a table of its nodes (all, or the unhealthy). */
export function formatNodes(
  cluster: string,
  answer: ClusterNodesAnswer,
  isUnhealthyOnly: boolean,
): string {
  const clock = liveTimeFormatter(answer.nowSec);
  const shown = isUnhealthyOnly
    ? answer.nodes.filter((node) => node.health !== "healthy")
    : answer.nodes;
  const heading = `${cluster}: ${nodesSummary(answer.nodes)}\n`;
  if (shown.length === 0) return `${heading}No node is draining or down.\n`;
  const rows = shown.map((node) => [
    String(node.index),
    node.hostname ?? "-",
    node.health,
    String(node.gpus),
    String(node.usedGpus),
    String(node.runs.length),
    node.isUnchangedOnRecord ? "-" : formatSpan(answer.nowSec - node.healthChangedSec),
    nodeNote(node, clock),
  ]);
  const align: Align[] = ["right", "left", "left", "right", "right", "right", "right", "left"];
  return `${heading}\n${formatTable(
    ["NODE", "NAME", "HEALTH", "GPUS", "USED", "RUNS", "SINCE", "NOTE"],
    rows,
    align,
  )}`;
}

/** `allot nodes` without a verb: every cluster's (or one's) nodes. */
async function listNodes(
  io: CliIo,
  client: ReturnType<typeof connect>,
  values: { cluster?: unknown; unhealthy?: unknown; json?: unknown },
): Promise<number> {
  const names = await clusterNames(client, values.cluster);
  if (names.length === 0 && !values.json) {
    io.stdout(NO_CLUSTERS_LINE);
    return 0;
  }
  const answers = [];
  for (const name of names) {
    answers.push({ cluster: name, ...(await client.get(nodesPath(name), clusterNodesAnswer)) });
  }
  if (values.json) printJson(io, { clusters: answers });
  else
    io.stdout(answers.map((a) => formatNodes(a.cluster, a, values.unhealthy === true)).join("\n"));
  return 0;
}

/** `allot nodes drain|down|resume <node>...`: one request per node, in order. */
async function changeHealth(
  io: CliIo,
  client: ReturnType<typeof connect>,
  verb: Verb,
  nodes: string[],
  values: { cluster?: unknown; reason?: unknown; json?: unknown },
): Promise<number> {
  const cluster = values.cluster;
  if (typeof cluster !== "string") throw new UsageError(`nodes ${verb}: --cluster is required`);
  if (nodes.length === 0) {
    throw new UsageError(`nodes ${verb}: missing <node> (see allot nodes --help)`);
  }
  const reason = typeof values.reason === "string" ? values.reason.trim() : "";
  if (verb === "drain" && reason === "") {
    throw new UsageError(
      "nodes drain: --reason is required (kept in the node's history, e.g. --reason 'firmware update')",
    );
  }
  const health = HEALTH_OF_VERB[verb];
  const body = reason === "" ? { health } : { health, reason };
  const changed = [];
  for (const node of nodes) {
    let result;
    try {
      result = await client.post(
        `${nodesPath(cluster)}/${encodeURIComponent(node)}/health`,
        body,
        nodeHealthAnswer,
      );
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 422) {
        throw new UsageError(
          `nodes ${verb}: --reason: ${error.issues[0]?.message ?? error.message}`,
        );
      }
      throw error;
    }
    changed.push(result);
    if (!values.json) {
      io.stdout(
        result.note
          ? `${result.cluster}: ${result.note} Nothing changed.\n`
          : `Node ${result.node} of ${result.cluster} set ${result.health}\n`,
      );
    }
  }
  if (values.json) printJson(io, { nodes: changed });
  return 0;
}

/** `allot nodes`: returns the exit code. */
export async function runNodesCommand(argv: string[], io: CliIo, deps: LiveDeps): Promise<number> {
  const args = parseCommandArgs("nodes", argv, NODES_OPTIONS);
  if (args.values.help) {
    io.stdout(NODES_HELP);
    return 0;
  }
  const [verb, ...nodes] = args.positionals;
  if (verb !== undefined && !isVerb(verb)) {
    throw new UsageError(
      `nodes: unknown verb "${verb}" (drain, down or resume; see allot nodes --help)`,
    );
  }
  if (verb === undefined && args.values.reason !== undefined) {
    throw new UsageError("nodes: --reason goes with drain, down or resume");
  }
  const client = connect(deps, args);
  return verb === undefined
    ? listNodes(io, client, args.values)
    : changeHealth(io, client, verb, nodes, args.values);
}
