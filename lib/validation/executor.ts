// What an executor may report (docs/executor.md). Each event carries an id unique per
// cluster: a repeated id changes nothing.
import { z } from "zod";

const eventId = z.string().trim().min(1, "Every event needs an id.").max(200);
const runEvent = <Kind extends string>(kind: Kind) =>
  z.strictObject({
    id: eventId,
    kind: z.literal(kind),
    runId: z.string().trim().min(1, "Name the run (runId from the plan)."),
    message: z.string().max(2000).optional(),
  });
const nodeEvent = <Kind extends string>(kind: Kind) =>
  z.strictObject({
    id: eventId,
    kind: z.literal(kind),
    node: z.number().int().min(0, "Node indices start at 0."),
    message: z.string().max(2000).optional(),
  });

export const executorEventSchema = z.discriminatedUnion("kind", [
  runEvent("job.started"),
  runEvent("job.finished"),
  runEvent("job.failed"),
  runEvent("job.stopped"),
  nodeEvent("node.healthy"),
  nodeEvent("node.draining"),
  nodeEvent("node.down"),
]);

export type ExecutorEvent = z.output<typeof executorEventSchema>;
export type ExecutorEventKind = ExecutorEvent["kind"];

const batchSchema = z.strictObject({ events: z.array(executorEventSchema).min(1).max(500) });

/** One event, or `{ events: [...] }` with up to 500 (applied in order, in one transaction). */
export function parseExecutorEvents(body: unknown): ExecutorEvent[] {
  if (typeof body === "object" && body !== null && "events" in body) {
    return batchSchema.parse(body).events;
  }
  return [executorEventSchema.parse(body)];
}
