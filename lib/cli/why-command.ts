import { plural } from "../engine/explain-words";
import { formatPercent, formatSpan, liveTimeFormatter } from "../format";
import { formatRunNodes, UNALLOCATED_RUN } from "./run-nodes";
import type { JobAnswer } from "./api-answers";
import type { LiveDeps } from "./api-config";
import { expectPositionals, parseCommandArgs } from "./args";
import type { CliIo } from "./io";
import { getJobByArg } from "./job-arg";
import { connect, LIVE_HELP, LIVE_OPTIONS, printJson } from "./live-command";
import { AWAITING_NEXT_PASS } from "../sentences/awaiting-next-pass";

/** `allot why --help`. */
export const WHY_HELP = `Usage: allot why <job> [--cluster <name>] [--json]

Why a job is where it is, in the server's own sentences: its state, its place in the queue and
its budget's rank (of the cluster's ranked budgets), why it waits, and its decisions (starts,
waits, preemptions), newest last: the last 10 (--json: the newest 500). Times are UTC.
<job> is Allot's id, or SLURM's job id for a job submitted with sbatch (looked up on every
cluster, or on --cluster).

Options:
  --cluster <name>   the cluster of a SLURM job id
${LIVE_HELP}`;

const WHY_OPTIONS = { ...LIVE_OPTIONS, cluster: { type: "string" } } as const;

/** How many decisions are printed; --json has every one the server gives (the newest 500). */
const SHOWN_DECISIONS = 10;

function stateLine(job: JobAnswer, clock: (sec: number) => string): string {
  const rank =
    job.budget.rank === null ? "" : `, budget rank ${job.budget.rank} of ${job.budget.rankOf}`;
  const usage =
    job.budget.usageRatio === null
      ? ""
      : ` (${formatPercent(job.budget.usageRatio)} of its share used)`;
  if (job.state === "pending") {
    const place =
      job.queuePosition === null ? "in the queue" : `#${job.queuePosition} in the queue`;
    return `State: pending, ${place}${rank}${usage}`;
  }
  const run = job.runs.at(-1);
  if (job.state === "running" && run) {
    const protectedSec = run.protectedUntilSec - job.nowSec;
    // An unallocated run was never protected: "no longer protected" would say it had been.
    const protection = !run.isAllocated
      ? UNALLOCATED_RUN
      : protectedSec > 0
        ? `protected until ${clock(run.protectedUntilSec)} (${formatSpan(protectedSec)} more)`
        : "no longer protected";
    return `State: running since ${clock(run.startSec)} on ${formatRunNodes(run)}, ${protection}${rank}${usage}`;
  }
  return `State: ${job.state}${job.endedSec === null ? "" : ` at ${clock(job.endedSec)}`}`;
}

/** The explanation of a job as `allot why` prints it. */
export function formatWhy(job: JobAnswer): string {
  const clock = liveTimeFormatter(job.nowSec);
  const lines = [
    `Job ${job.id} "${job.name}" on ${job.cluster}, by ${job.user.name}, budget ${job.budget.path}`,
    `${plural(job.gpus, "GPU", "GPUs")}, minimum runtime ${job.minRuntimeSec === 0 ? "0 (unallocated)" : formatSpan(job.minRuntimeSec)}, ${job.isResumable ? "resumable" : "not resumable"}, priority ${job.priority}, submitted ${clock(job.submittedSec)}`,
    stateLine(job, clock),
  ];
  if (job.state === "pending") {
    lines.push(job.waitSentence ?? AWAITING_NEXT_PASS);
  }
  const decisions = job.decisions.slice(-SHOWN_DECISIONS);
  const earlier = job.decisions.length - decisions.length;
  lines.push("", decisions.length === 0 ? "No decision yet." : "Decisions, newest last:");
  if (earlier > 0) lines.push(`  (${earlier} earlier; --json has them)`);
  // Each sentence says what happened ("Started at...", "Waiting: ...", "Preempted...").
  for (const decision of decisions) lines.push(`  ${clock(decision.atSec)}  ${decision.sentence}`);
  return `${lines.join("\n")}\n`;
}

/** `allot why`: returns the exit code. */
export async function runWhyCommand(argv: string[], io: CliIo, deps: LiveDeps): Promise<number> {
  const args = parseCommandArgs("why", argv, WHY_OPTIONS);
  if (args.values.help) {
    io.stdout(WHY_HELP);
    return 0;
  }
  const [jobId] = expectPositionals("why", args, ["job"]);
  const job = await getJobByArg(connect(deps, args), "why", jobId as string, args.values.cluster);
  if (args.values.json) printJson(io, { job });
  else io.stdout(formatWhy(job));
  return 0;
}
