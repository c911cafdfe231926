import { formatNumber, formatSpan, liveTimeFormatter } from "../format";
import { formatRunNodes, UNALLOCATED_RUN } from "./run-nodes";
import {
  clusterQueueAnswer,
  meAnswer,
  type ClusterQueueAnswer,
  type RunningRunAnswer,
} from "./api-answers";
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
import { formatTable, type Align } from "./table";

/** `allot squeue --help`. */
export const SQUEUE_HELP = `Usage: allot squeue [--cluster <name>] [--me] [--start] [--json]

The live queue of a cluster (every cluster without --cluster), like squeue: running jobs, then
pending jobs in the order the scheduler will consider them (POS), each with its budget's rank
and the reason it waits. JOBID is SLURM's job id for a job submitted with sbatch, else Allot's;
\`allot why\` and \`allot cancel\` take either. START is when a running job started and, for
a pending job, the time by which it is expected to start when the server knows one (else -).
TIME is how long a running job has run, and a pending one has waited: since it was submitted,
or since its last run ended when it was requeued. Times are UTC.

Options:
  --cluster <name>   one cluster
  --me               only the jobs of the token's owner
  --start            pending jobs only, with START and what would have to change (NOTE)
${LIVE_HELP}`;

function protectionOf(run: RunningRunAnswer, nowSec: number): string {
  if (!run.isAllocated) return UNALLOCATED_RUN;
  const protectedSec = run.protectedUntilSec - nowSec;
  return protectedSec > 0 ? `protected ${formatSpan(protectedSec)} more` : "no longer protected";
}

function keepOwn(queue: ClusterQueueAnswer, userId: string): ClusterQueueAnswer {
  return {
    ...queue,
    running: queue.running.filter((run) => run.userId === userId),
    pending: queue.pending.filter((job) => job.userId === userId),
  };
}

function summaryLine(queue: ClusterQueueAnswer, isOwn: boolean): string {
  if (isOwn) {
    return `${queue.cluster.name}: ${formatNumber(queue.cluster.gpus)} GPUs, ${formatNumber(queue.pendingTotal)} pending in all; yours: ${formatNumber(queue.running.length)} running, ${formatNumber(queue.pending.length)} pending`;
  }
  const shown =
    queue.pending.length < queue.pendingTotal
      ? ` (${formatNumber(queue.pending.length)} shown)`
      : "";
  return `${queue.cluster.name}: ${formatNumber(queue.cluster.gpus)} GPUs, ${formatNumber(queue.running.length)} running, ${formatNumber(queue.pendingTotal)} pending${shown}`;
}

/**
 * The squeue table of some clusters' queues (already filtered): a summary line per cluster, then
 * one table. `isOwn`: the queues hold the caller's jobs only (--me). `isStartView` lists pending
 * jobs only, with their start estimates and notes.
 */
export function formatSqueue(
  queues: ClusterQueueAnswer[],
  options: { isOwn: boolean; isStartView: boolean },
): string {
  const { isOwn, isStartView } = options;
  const summaries = queues.map((queue) => `${summaryLine(queue, isOwn)}\n`).join("");
  const rows: string[][] = [];
  for (const queue of queues) {
    const clock = liveTimeFormatter(queue.nowSec);
    if (!isStartView) {
      for (const run of queue.running) {
        rows.push([
          queue.cluster.name,
          run.externalId ?? run.jobId,
          run.name,
          run.userName,
          run.budgetPath,
          "R",
          String(run.gpus),
          run.rank === null ? "-" : String(run.rank),
          "-",
          formatSpan(queue.nowSec - run.startedSec),
          clock(run.startedSec),
          `${formatRunNodes(run)}; ${protectionOf(run, queue.nowSec)}`,
        ]);
      }
    }
    for (const job of queue.pending) {
      const start = job.expectedStartAt ? clock(Date.parse(job.expectedStartAt) / 1000) : "-";
      const jobId = job.externalId ?? job.jobId;
      const common = [queue.cluster.name, jobId, job.name, job.userName, job.budgetPath];
      rows.push(
        isStartView
          ? [...common, String(job.gpus), String(job.position ?? "-"), start, job.startNote ?? "-"]
          : [
              ...common,
              "PD",
              String(job.gpus),
              job.rank === null ? "-" : String(job.rank),
              String(job.position ?? "-"),
              formatSpan(job.waitingSec),
              start,
              job.sentence,
            ],
      );
    }
  }
  const [headers, align]: [string[], Align[]] = isStartView
    ? [
        ["CLUSTER", "JOBID", "NAME", "USER", "BUDGET", "GPUS", "POS", "START", "NOTE"],
        ["left", "left", "left", "left", "left", "right", "right", "left", "left"],
      ]
    : [
        [
          "CLUSTER",
          "JOBID",
          "NAME",
          "USER",
          "BUDGET",
          "ST",
          "GPUS",
          "RANK",
          "POS",
          "TIME",
          "START",
          "REASON",
        ],
        [
          "left",
          "left",
          "left",
          "left",
          "left",
          "left",
          "right",
          "right",
          "right",
          "right",
          "left",
          "left",
        ],
      ];
  return `${summaries}\n${formatTable(headers, rows, align)}`;
}

/** `allot squeue`: returns the exit code. */
export async function runSqueueCommand(argv: string[], io: CliIo, deps: LiveDeps): Promise<number> {
  const args = parseCommandArgs("squeue", argv, {
    ...LIVE_OPTIONS,
    cluster: { type: "string", short: "M" },
    me: { type: "boolean" },
    start: { type: "boolean" },
  });
  if (args.values.help) {
    io.stdout(SQUEUE_HELP);
    return 0;
  }
  expectPositionals("squeue", args, []);
  const client = connect(deps, args);
  const me = args.values.me ? await client.get("/api/v1/me", meAnswer) : null;
  const names = await clusterNames(client, args.values.cluster);
  const queues: ClusterQueueAnswer[] = [];
  for (const name of names) {
    const queue = await client.get(queuePath(name), clusterQueueAnswer);
    queues.push(me ? keepOwn(queue, me.id) : queue);
  }
  if (args.values.json) {
    printJson(io, {
      ...(me ? { user: { id: me.id, name: me.name } } : {}),
      clusters: queues.map(({ cluster, nowSec, pendingTotal, running, pending }) => ({
        cluster,
        nowSec,
        pendingTotal,
        running,
        pending,
      })),
    });
    return 0;
  }
  if (queues.length === 0) {
    io.stdout(NO_CLUSTERS_LINE);
    return 0;
  }
  io.stdout(formatSqueue(queues, { isOwn: me !== null, isStartView: args.values.start === true }));
  return 0;
}
