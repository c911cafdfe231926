import { PRIORITIES } from "../validation/jobs";
import { jobEnvelopeAnswer, meAnswer, type MeAnswer } from "./api-answers";
import type { LiveDeps } from "./api-config";
import { ApiRequestError } from "./api-errors";
import {
  expectPositionals,
  parseCommandArgs,
  parseDurationFlag,
  parseIntegerFlag,
  requireString,
  type ParsedArgs,
} from "./args";
import { UsageError, type CliIo } from "./io";
import { connect, LIVE_HELP, LIVE_OPTIONS, printJson } from "./live-command";
import { isBareNumber } from "../sim/duration";

/** `allot submit --help`. */
export const SUBMIT_HELP = `Usage: allot submit --cluster <name> --name <name> --gpus <n> --min-runtime <duration> [options]

Submits a job, like sbatch, charged to one of your leaf budgets, and prints its id and its
place in the queue. The scheduler ranks it by its budget's recent use (allot why <job>).

Options:
  -M, --cluster <name>       the cluster
  -J, --name <name>          the job's name
  -G, --gpus <n>             GPUs it needs
  --min-runtime <duration>   its contract: it cannot be preempted before, e.g. 2h, 90m,
                             1h30m, or as sbatch --time: 1:30:00 (h:m:s), 90:00 (m:s), 2-12
                             (d-h); 0 runs on idle GPUs only, unprotected and uncharged
  -A, --budget <budget>      the budget to charge: its id, path (program/project/you) or leaf
                             name; may be left out when you may charge only one
  --priority <p>             low, normal (default) or high, within your budget
  --resumable                it can be requeued after a preemption and resume (the default)
  --no-resumable             it starts over after a preemption
  --parsable                 print the job's id only
${LIVE_HELP}`;

/** The API's field names in a refusal, as the flags that set them. */
const FLAG_OF_FIELD: Record<string, string> = {
  cluster: "--cluster",
  budgetId: "--budget",
  name: "--name",
  gpus: "--gpus",
  minRuntimeSec: "--min-runtime",
  priority: "--priority",
  isResumable: "--resumable",
};

/** The body of POST /api/v1/jobs, before the budget is known. */
export type SubmitRequest = {
  cluster: string;
  budget: string | null;
  name: string;
  gpus: number;
  minRuntimeSec: number;
  priority: (typeof PRIORITIES)[number];
  isResumable: boolean;
};

/** The flags a submission cannot do without, in the order the usage line gives them. */
const REQUIRED_FLAGS = ["cluster", "name", "gpus", "min-runtime"];

/** Reads and checks submit's flags, or throws a {@link UsageError} naming the flag. */
export function parseSubmitArgs(args: ParsedArgs): SubmitRequest {
  // All the missing ones at once, as sbatch users type them: not one per attempt.
  const missing = REQUIRED_FLAGS.filter((name) => !args.values[name]).map((name) => `--${name}`);
  if (missing.length > 0) {
    const listed =
      missing.length === 1
        ? `${missing[0]} is`
        : `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)} are`;
    throw new UsageError(`submit: ${listed} required`);
  }
  const priority = (args.values.priority as string | undefined) ?? "normal";
  if (!(PRIORITIES as readonly string[]).includes(priority)) {
    throw new UsageError(
      `submit: --priority must be one of ${PRIORITIES.join(", ")}, got "${priority}"`,
    );
  }
  if (args.values.resumable && args.values["no-resumable"]) {
    throw new UsageError("submit: --resumable and --no-resumable contradict each other");
  }
  const minRuntimeText = requireString("submit", args, "min-runtime");
  // sbatch reads a bare "90" as minutes, Allot's durations as seconds: a contract of 90 s by
  // mistake is worse than a refusal. 0 (free) means the same to both.
  if (isBareNumber(minRuntimeText) && Number(minRuntimeText) !== 0) {
    throw new UsageError(
      `submit: --min-runtime "${minRuntimeText.trim()}" needs a unit (e.g. ${minRuntimeText.trim()}m or ${minRuntimeText.trim()}s): sbatch would read minutes`,
    );
  }
  const minRuntimeSec = parseDurationFlag("submit", "min-runtime", minRuntimeText);
  if (!Number.isInteger(minRuntimeSec)) {
    throw new UsageError("submit: --min-runtime must be whole seconds");
  }
  return {
    cluster: requireString("submit", args, "cluster"),
    budget: (args.values.budget as string | undefined) ?? null,
    name: requireString("submit", args, "name"),
    gpus: parseIntegerFlag(
      "submit",
      "gpus",
      requireString("submit", args, "gpus"),
      1,
      2_147_483_647,
    ),
    minRuntimeSec,
    priority: priority as SubmitRequest["priority"],
    isResumable: args.values["no-resumable"] !== true,
  };
}

/**
 * The id of the budget `given` names among those the caller may charge (by id, path or leaf
 * name), or the only one when none is given; a {@link UsageError} otherwise.
 */
export function pickBudget(given: string | null, me: MeAnswer): string {
  const yours = me.budgets.map((budget) => budget.path).join(", ");
  if (me.budgets.length === 0) {
    throw new UsageError("submit: you may charge no budget yet; ask your project lead to add you");
  }
  if (given === null) {
    if (me.budgets.length === 1) return me.budgets[0]!.id;
    throw new UsageError(`submit: --budget is required: you may charge ${yours}`);
  }
  const exact = me.budgets.find((budget) => budget.id === given || budget.path === given);
  if (exact) return exact.id;
  const byName = me.budgets.filter((budget) => budget.path.split("/").at(-1) === given);
  if (byName.length === 1) return byName[0]!.id;
  const why =
    byName.length > 1 ? "names more than one of your budgets" : "is not a budget you may charge";
  throw new UsageError(`submit: --budget "${given}" ${why}; you may charge ${yours}`);
}

/** A 422 from the server as a usage error naming the flags. */
export function refusedAsUsage(command: string, error: ApiRequestError): UsageError {
  const problems = error.issues.map((issue) => {
    const field = issue.path.split(".")[0] ?? issue.path;
    return `${FLAG_OF_FIELD[field] ?? issue.path}: ${issue.message}`;
  });
  return new UsageError(`${command}: ${problems.length > 0 ? problems.join("; ") : error.message}`);
}

/** `allot submit`: returns the exit code. */
export async function runSubmitCommand(argv: string[], io: CliIo, deps: LiveDeps): Promise<number> {
  const args = parseCommandArgs("submit", argv, {
    ...LIVE_OPTIONS,
    cluster: { type: "string", short: "M" },
    name: { type: "string", short: "J" },
    gpus: { type: "string", short: "G" },
    "min-runtime": { type: "string" },
    budget: { type: "string", short: "A" },
    priority: { type: "string" },
    resumable: { type: "boolean" },
    "no-resumable": { type: "boolean" },
    parsable: { type: "boolean" },
  });
  if (args.values.help) {
    io.stdout(SUBMIT_HELP);
    return 0;
  }
  expectPositionals("submit", args, []);
  const request = parseSubmitArgs(args);
  const client = connect(deps, args);
  const budgetId = pickBudget(request.budget, await client.get("/api/v1/me", meAnswer));
  const { budget: _given, ...fields } = request;
  let job;
  try {
    ({ job } = await client.post("/api/v1/jobs", { ...fields, budgetId }, jobEnvelopeAnswer));
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 422) {
      throw refusedAsUsage("submit", error);
    }
    throw error;
  }
  if (args.values.json) printJson(io, { job });
  else if (args.values.parsable) io.stdout(`${job.id}\n`);
  else {
    const place =
      job.state === "pending"
        ? `pending, ${job.queuePosition === null ? "in the queue" : `#${job.queuePosition} in the queue`}`
        : job.state;
    io.stdout(`Submitted job ${job.id} to ${job.cluster} (budget ${job.budget.path}): ${place}\n`);
    if (job.waitSentence) io.stdout(`${job.waitSentence}\n`);
  }
  return 0;
}
