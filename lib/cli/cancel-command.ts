import { jobEnvelopeAnswer, type JobAnswer } from "./api-answers";
import type { LiveDeps } from "./api-config";
import { parseCommandArgs } from "./args";
import { UsageError, type CliIo } from "./io";
import { jobIdOfArg } from "./job-arg";
import { connect, jobPath, LIVE_HELP, LIVE_OPTIONS, printJson } from "./live-command";

/** `allot cancel --help`. */
export const CANCEL_HELP = `Usage: allot cancel <job>... [--cluster <name>] [--json]

Cancels pending or running jobs, like scancel: your own (admins: any). Jobs are cancelled in
the order given; the first refusal (a job that has ended, or is not yours) stops the rest.
<job> is Allot's id, or SLURM's job id for a job submitted with sbatch (looked up on every
cluster, or on --cluster); SLURM cancels it too.

Options:
  --cluster <name>   the cluster of SLURM job ids
${LIVE_HELP}`;

const CANCEL_OPTIONS = { ...LIVE_OPTIONS, cluster: { type: "string" } } as const;

/** `allot cancel`: returns the exit code. */
export async function runCancelCommand(argv: string[], io: CliIo, deps: LiveDeps): Promise<number> {
  const args = parseCommandArgs("cancel", argv, CANCEL_OPTIONS);
  if (args.values.help) {
    io.stdout(CANCEL_HELP);
    return 0;
  }
  if (args.positionals.length === 0) {
    throw new UsageError("cancel: missing <job> (see allot cancel --help)");
  }
  const client = connect(deps, args);
  const cancelled: JobAnswer[] = [];
  for (const arg of args.positionals) {
    const id = await jobIdOfArg(client, "cancel", arg, args.values.cluster);
    const { job } = await client.post(`${jobPath(id)}/cancel`, {}, jobEnvelopeAnswer);
    cancelled.push(job);
    if (!args.values.json) io.stdout(`Cancelled job ${job.id} "${job.name}" on ${job.cluster}\n`);
  }
  if (args.values.json) printJson(io, { jobs: cancelled });
  return 0;
}
