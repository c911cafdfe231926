// `allot slurm bridge` and `allot slurm register`: the command-line faces of the bridge
// (bridge.ts) and of registering a SLURM cluster in Allot from sinfo.
import { parseCommandArgs, parseDurationFlag, requireString } from "./args";
import { InputError, UsageError, type CliIo } from "./io";
import { createAllotClient, type AllotClient } from "../slurm/allot-client";
import { createBridge, runBridgeLoop, runBridgeRound } from "../slurm/bridge";
import { createSlurmRunner, SlurmCommandError, type SlurmRunner } from "../slurm/slurm-cli";
import { parseSinfo } from "../slurm/slurm-read";
import { allotCallError, assertSlurmConf, requireAllotToken, requireServer } from "./slurm-deps";

export const BRIDGE_HELP = `Usage: allot slurm bridge --cluster <name> --server <url> [--interval 2s] [--once]

Runs beside slurmctld (as root, with SLURM_CONF set) and lets Allot schedule the cluster:
mirrors every new sbatch job into Allot, starts what Allot decides on the nodes it chose
(scontrol update NodeList=... + release), preempts by requeuehold or scancel, mirrors node
drains and failures both ways, and writes each waiting job's reason into its SLURM comment
(squeue -o "%.10i %.9T %k"). Every round starts from both sides again, so restarting the
bridge, Allot or slurmctld loses nothing and starts nothing twice. See docs/slurm.md.

Options:
  --cluster <name>     the Allot cluster (registered with allot slurm register)
  --server <url>       Allot's address, e.g. https://allot.example.org (default: ALLOT_SERVER)
  --interval <dur>     time between rounds (default 2s, at least 1s)
  --once               run one round and exit (a job gone from squeue and sacct is ended only
                       when it has been missing for a minute, by a bridge that keeps running)
Environment:
  ALLOT_TOKEN          the cluster's executor token (Clusters -> Nodes -> Executor tokens)
Exit codes: 0 stopped by SIGTERM/SIGINT (or --once done), 1 SLURM unreachable at start or
Allot's refusal (a cluster SLURM does not run), 2 bad usage, 3 Allot unreachable at start,
4 no token or Allot refused it.
`;

export const REGISTER_HELP = `Usage: allot slurm register --cluster <name> --server <url> --gpu-type <type>
       [--token-name <name>] [--max-min-runtime 8h] [--default-min-runtime 1h]

Registers this SLURM cluster in Allot (or brings its nodes up to date): reads the nodes and
their GPUs from sinfo and posts them to Allot, which then schedules the cluster only through
the bridge. With --token-name, prints a new executor token for the bridge (shown once).

Options:
  --cluster <name>              the Allot cluster to register or bring up to date
  --server <url>                Allot's address, e.g. https://allot.example.org (default: ALLOT_SERVER)
  --gpu-type <type>             the GPUs' type, e.g. H100
  --token-name <name>           also make an executor token of this name for the bridge
  --max-min-runtime <dur>       the longest minimum runtime a job may declare (default 8h)
  --default-min-runtime <dur>   a job's minimum runtime when sbatch gives no --time-min
                                (default 1h; at most the maximum)
Environment:
  ALLOT_TOKEN                   an admin's personal token
Exit codes: 0 registered or updated, 1 SLURM unreachable or Allot refused the request, 2 bad
usage (a missing flag), 3 Allot unreachable, 4 no token or Allot refused it.
`;

/** The shortest time between rounds (--interval). */
const MIN_INTERVAL_SEC = 1;

type Env = Record<string, string | undefined>;

function stamp(cluster: string): (line: string) => string {
  return (line) => `${new Date().toISOString()} bridge[${cluster}] ${line}\n`;
}

/** Fails with a clear message when SLURM's controller or Allot cannot be reached at start. */
async function checkBothSides(slurm: SlurmRunner, allot: AllotClient, cluster: string) {
  try {
    const ping = await slurm("scontrol", ["ping"]);
    if (!/\bUP\b/.test(ping)) throw new InputError(`SLURM's controller is not up: ${ping.trim()}`);
  } catch (error) {
    if (error instanceof SlurmCommandError)
      throw new InputError(`cannot reach SLURM: ${error.message}`);
    throw error;
  }
  try {
    await allot.get(`/api/v1/clusters/${encodeURIComponent(cluster)}/plan`);
  } catch (error) {
    throw allotCallError(error, ` (ALLOT_TOKEN must be cluster ${cluster}'s executor token)`);
  }
}

/** `allot slurm bridge`: resolves when stopped; returns the exit code. */
export async function runBridgeCommand(
  argv: string[],
  io: CliIo,
  env: Env = process.env,
  slurm: SlurmRunner = createSlurmRunner(),
): Promise<number> {
  const args = parseCommandArgs("slurm bridge", argv, {
    cluster: { type: "string" },
    server: { type: "string" },
    interval: { type: "string" },
    once: { type: "boolean" },
  });
  if (args.values.help) {
    io.stdout(BRIDGE_HELP);
    return 0;
  }
  const cluster = requireString("slurm bridge", args, "cluster");
  const server = requireServer("slurm bridge", args, env);
  const intervalSec =
    typeof args.values.interval === "string"
      ? parseDurationFlag("slurm bridge", "interval", args.values.interval)
      : 2;
  if (intervalSec < MIN_INTERVAL_SEC) {
    // Each round runs squeue and sinfo and reads the plan: 0 s would hammer both sides.
    throw new UsageError(
      `slurm bridge: --interval ${String(args.values.interval)} is below ${MIN_INTERVAL_SEC}s: each round runs squeue and sinfo and asks Allot for the plan; use ${MIN_INTERVAL_SEC}s or more`,
    );
  }
  const token = requireAllotToken("slurm bridge", env, `cluster ${cluster}'s executor token`);
  const allot = createAllotClient(server, token);
  assertSlurmConf(env);
  await checkBothSides(slurm, allot, cluster);
  const line = stamp(cluster);
  const bridge = createBridge({ cluster, allot, slurm, log: (text) => io.stdout(line(text)) });
  if (args.values.once) {
    const summary = await runBridgeRound(bridge);
    io.stdout(line(`round: ${JSON.stringify(summary)}`));
    return summary.failedSteps > 0 ? 1 : 0;
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  io.stdout(line(`started: Allot at ${allot.server}, a round every ${intervalSec} s`));
  try {
    await runBridgeLoop(bridge, intervalSec * 1000, stop.signal);
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  }
  io.stdout(line("stopped"));
  return 0;
}

type Registered = {
  name: string;
  isNew: boolean;
  nodes: { index: number; hostname: string; gpus: number }[];
  unlisted: string[];
  token: string | null;
};

/** `allot slurm register`: returns the exit code. */
export async function runRegisterCommand(
  argv: string[],
  io: CliIo,
  env: Env = process.env,
  slurm: SlurmRunner = createSlurmRunner(),
): Promise<number> {
  const args = parseCommandArgs("slurm register", argv, {
    cluster: { type: "string" },
    server: { type: "string" },
    "gpu-type": { type: "string" },
    "token-name": { type: "string" },
    "max-min-runtime": { type: "string" },
    "default-min-runtime": { type: "string" },
  });
  if (args.values.help) {
    io.stdout(REGISTER_HELP);
    return 0;
  }
  const command = "slurm register";
  const name = requireString(command, args, "cluster");
  const gpuType = requireString(command, args, "gpu-type");
  const runtimes = minRuntimeFields(command, args.values);
  const server = requireServer(command, args, env);
  const token = requireAllotToken(command, env, "an admin's personal token");
  assertSlurmConf(env);
  const body = {
    name,
    gpuType,
    executor: "slurm",
    nodes: await readNodes(slurm),
    ...runtimes,
    ...(typeof args.values["token-name"] === "string"
      ? { tokenName: args.values["token-name"] }
      : {}),
  };
  const allot = createAllotClient(server, token);
  let registered: Registered;
  try {
    registered = await allot.post<Registered>("/api/v1/clusters", body);
  } catch (error) {
    throw allotCallError(error, " (ALLOT_TOKEN must be an admin's personal token)");
  }
  const gpus = registered.nodes.reduce((sum, node) => sum + node.gpus, 0);
  io.stdout(
    `${registered.isNew ? "registered" : "updated"} ${registered.name}: ${registered.nodes.length} nodes, ${gpus} GPUs\n`,
  );
  if (registered.unlisted.length > 0) {
    io.stdout(`not in sinfo any more (left as they are): ${registered.unlisted.join(", ")}\n`);
  }
  if (registered.token) io.stdout(`executor token (shown once): ${registered.token}\n`);
  return 0;
}

async function readNodes(slurm: SlurmRunner) {
  let json: string;
  try {
    json = await slurm("sinfo", ["--json"]);
  } catch (error) {
    if (error instanceof SlurmCommandError)
      throw new InputError(`cannot read SLURM's nodes: ${error.message}`);
    throw error;
  }
  const nodes = parseSinfo(json).filter((node) => node.gpus > 0);
  if (nodes.length === 0) throw new InputError("sinfo lists no node with GPUs (gres gpu)");
  return nodes.map((node) => ({ hostname: node.name, gpus: node.gpus }));
}

/** The minimum-runtime flags as API fields; a default above the maximum is bad usage. */
function minRuntimeFields(command: string, values: Record<string, unknown>) {
  const max = values["max-min-runtime"];
  const fallback = values["default-min-runtime"];
  const maxSec =
    typeof max === "string" ? parseDurationFlag(command, "max-min-runtime", max) : null;
  const defaultSec =
    typeof fallback === "string"
      ? parseDurationFlag(command, "default-min-runtime", fallback)
      : null;
  if (maxSec !== null && defaultSec !== null && defaultSec > maxSec) {
    throw new UsageError(
      `${command}: --default-min-runtime ${String(fallback)} is above --max-min-runtime ${String(max)}: every sbatch without --time-min would be refused; lower the default or raise the maximum`,
    );
  }
  return {
    ...(maxSec === null ? {} : { maxMinRuntimeSec: maxSec }),
    ...(defaultSec === null ? {} : { defaultMinRuntimeSec: defaultSec }),
  };
}
