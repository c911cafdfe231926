// What an executor may report (docs/executor.md). Each event carries an id unique per
// cluster: a repeated id changes nothing. A batch is all or nothing: one bad event refuses the
// whole batch with a 422 naming it (`events.3.runId`), before anything is written, so the
// executor can fix or drop that event and send the batch again.
import { z, ZodError } from "zod";
import { AppError } from "../errors";
import { PRIORITIES } from "./jobs";
import { int4 } from "./numbers";
import { lineString, textString } from "../text";

export const MAX_EVENTS_PER_BATCH = 500;

/**
 * The id prefix of a person's node health events (lib/data/node-health.ts): reserved, so that
 * the executor's liveness, which leaves them out, counts every event an executor sends.
 */
export const PERSON_EVENT_PREFIX = "admin-";

const eventId = lineString("Every event needs an id.")
  .trim()
  .min(1, "Every event needs an id.")
  .max(200, "An event id has at most 200 characters.")
  .refine(
    (id) => !id.startsWith(PERSON_EVENT_PREFIX),
    `Event ids starting "${PERSON_EVENT_PREFIX}" are kept for admins' node changes; choose another.`,
  );
const message = textString().max(2000, "A message has at most 2,000 characters.").optional();
const runEvent = <Kind extends string>(kind: Kind) =>
  z.strictObject({
    id: eventId,
    kind: z.literal(kind),
    runId: lineString("Name the run (runId from the plan).")
      .trim()
      .min(1, "Name the run (runId from the plan).")
      .max(200, "A run id has at most 200 characters."),
    message,
  });
const nodeEvent = <Kind extends string>(kind: Kind) =>
  z.strictObject({
    id: eventId,
    kind: z.literal(kind),
    node: int4({ min: 0, minMessage: "Node indices start at 0." }),
    message,
  });

const line = (what: string, max: number) =>
  lineString(`Give the ${what}.`)
    .trim()
    .min(1, `Give the ${what}.`)
    .max(max, `The ${what} has at most ${max} characters.`);

/** GPUs on one node, by the node's index in the plan (`nodes[].index`). */
const nodeSlice = z.strictObject({
  node: int4({ min: 0, minMessage: "Node indices start at 0." }),
  gpus: int4({ min: 1, minMessage: "A node's part of a job holds at least 1 GPU." }),
});

/**
 * Where and since when a mirrored job already runs on the executor: a job that ran before the
 * bridge did. Allot adopts it as a run it started then, and charges it from then.
 */
const alreadyRunning = z.strictObject({
  placement: z
    .array(nodeSlice)
    .min(1, "Name at least one node the job runs on.")
    .max(10_000, "A job runs on at most 10,000 nodes."),
  startedAt: z.iso.datetime({
    offset: true,
    error: "Give when it started as an ISO 8601 time, such as 2026-12-08T09:30:00Z.",
  }),
});

/**
 * A job the executor's own users submitted (SLURM: sbatch), to be queued in Allot. The account
 * names the leaf (lib/data/slurm-mapping.ts); a missing minimum runtime takes the cluster's default.
 */
const submittedEvent = z.strictObject({
  id: eventId,
  kind: z.literal("job.submitted"),
  externalId: line("executor's job id (externalId)", 200),
  account: line("account", 200),
  user: line("user's login", 200),
  name: line("job name", 120),
  gpus: int4({ min: 1, minMessage: "A job needs at least 1 GPU." }),
  minRuntimeSec: int4({ min: 0, minMessage: "Minimum runtime cannot be negative." }).nullable(),
  isResumable: z.boolean(),
  priority: z.enum(PRIORITIES).default("normal"),
  /** Set when the job already runs on the executor: it is adopted, not queued. */
  running: alreadyRunning.optional(),
  message,
});

/** A mirrored job its user cancelled on the executor (SLURM: scancel); Allot's id. */
const cancelledEvent = z.strictObject({
  id: eventId,
  kind: z.literal("job.cancelled"),
  jobId: line("job's id (jobId)", 200),
  message,
});

export const executorEventSchema = z.discriminatedUnion("kind", [
  submittedEvent,
  cancelledEvent,
  runEvent("job.started"),
  runEvent("job.finished"),
  runEvent("job.failed"),
  runEvent("job.stopped"),
  runEvent("job.requeued"),
  nodeEvent("node.healthy"),
  nodeEvent("node.draining"),
  nodeEvent("node.down"),
]);

export type ExecutorEvent = z.output<typeof executorEventSchema>;
export type ExecutorEventKind = ExecutorEvent["kind"];

export const batchSchema = z.strictObject({
  events: z
    .array(executorEventSchema)
    .min(1, "Send at least one event.")
    .max(MAX_EVENTS_PER_BATCH, `Send at most ${MAX_EVENTS_PER_BATCH} events at a time.`),
});

/** "Event 3 (id "e-17")" for the first issue under events.3, or null for one about the batch. */
function firstBadEvent(body: unknown, error: ZodError): string | null {
  const index = error.issues.find((issue) => issue.path[0] === "events")?.path[1];
  if (typeof index !== "number") return null;
  const id = ((body as { events?: unknown }).events as { id?: unknown }[])[index]?.id;
  // Quote the id only when it is a good one: a bad id is the problem, not a name for it.
  return eventId.safeParse(id).success
    ? `Event ${index} (id ${JSON.stringify(id)})`
    : `Event ${index}`;
}

function refusal(error: ZodError, event: string | null): AppError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
  const message = event
    ? `${event} is invalid, so none of the batch was applied: fix or drop it and send the batch again.`
    : "The events are invalid; none was applied.";
  return new AppError("validation_failed", message, issues);
}

/**
 * One event, or `{ events: [...] }` with up to 500 (applied in order, in one transaction).
 * Throws a 422 AppError whose issues name each bad field and whose message names the first
 * bad event: nothing of a refused batch is applied.
 */
export function parseExecutorEvents(body: unknown): ExecutorEvent[] {
  if (typeof body === "object" && body !== null && "events" in body) {
    const batch = batchSchema.safeParse(body);
    if (batch.success) return batch.data.events;
    throw refusal(batch.error, firstBadEvent(body, batch.error));
  }
  const single = executorEventSchema.safeParse(body);
  if (single.success) return [single.data];
  throw refusal(single.error, null);
}

/**
 * The header an executor sends to say what it is (the SLURM bridge sends `slurm`), so Allot
 * can refuse a bridge pointed at a cluster another executor drives.
 */
export const EXECUTOR_KIND_HEADER = "x-allot-executor";

const executorKindSchema = z.enum(["slurm"], {
  error: `${EXECUTOR_KIND_HEADER} names the executor: "slurm", or leave it out.`,
});

export type ExecutorKind = z.output<typeof executorKindSchema>;

/** The executor kind a request reports (EXECUTOR_KIND_HEADER), or null when it reports none. */
export function parseExecutorKind(headers: Headers): ExecutorKind | null {
  const value = headers.get(EXECUTOR_KIND_HEADER);
  if (value === null) return null;
  const parsed = executorKindSchema.safeParse(value.trim().toLowerCase());
  if (parsed.success) return parsed.data;
  throw new AppError("validation_failed", "The executor kind is not one Allot knows.", [
    { path: `headers.${EXECUTOR_KIND_HEADER}`, message: parsed.error.issues[0]!.message },
  ]);
}
