// Reasons for the actions that take GPUs from people (issue #35): cancelling a job, changing a
// node's health, adopting a draft. Cancel's reason is optional; draining a node and adopting a
// split need one, and a missing one is a 422 naming `reason`.
import { z } from "zod";
import { formInt4 } from "./numbers";
import { textString } from "../text";

export const MAX_REASON_CHARS = 500;

const tooLong = `Keep the reason under ${MAX_REASON_CHARS} characters.`;

/** A required reason: "" and blanks are refused with `message`. */
export function requiredReason(message: string) {
  return textString(message).trim().min(1, message).max(MAX_REASON_CHARS, tooLong);
}

/** An optional reason: blanks become undefined. */
export const optionalReason = textString("The reason must be text.")
  .trim()
  .max(MAX_REASON_CHARS, tooLong)
  .optional()
  .transform((value) => (value ? value : undefined));

/** Body of POST /api/v1/jobs/{id}/cancel: an optional reason, kept in the job's history. */
export const cancelJobSchema = z.strictObject({ reason: optionalReason });
export type CancelJobInput = z.infer<typeof cancelJobSchema>;

export const NODE_HEALTHS = ["healthy", "draining", "down"] as const;
export type NodeHealthValue = (typeof NODE_HEALTHS)[number];

export const DRAIN_REASON_MESSAGE =
  "Say why the node is drained (kept in its history, e.g. “firmware update”).";

/**
 * Body of POST /api/v1/clusters/{name}/nodes/{node}/health (and the nodes page's form): the
 * new health and why. Draining needs a reason: it preempts every unprotected run at once.
 */
export const nodeHealthSchema = z
  .strictObject({
    health: z.enum(NODE_HEALTHS, "Choose healthy, draining or down."),
    reason: optionalReason,
  })
  .superRefine((value, context) => {
    if (value.health === "draining" && !value.reason) {
      context.addIssue({ code: "custom", path: ["reason"], message: DRAIN_REASON_MESSAGE });
    }
  });
export type NodeHealthInput = z.infer<typeof nodeHealthSchema>;

/** A node index in a path or a form field ("4"). */
export const nodeIndexField = formInt4({
  error: "Choose a node.",
  min: 0,
  minMessage: "Node indices start at 0.",
});

export const ADOPT_REASON_MESSAGE = "Say why this split is adopted (kept in the budget's history).";

/**
 * A node: its index, or a name as a URL gives it, which may also read as an index ("7"): the
 * executor's name for a node (SLURM's NodeName) wins over the index it reads as.
 */
export type NodeRef = number | { hostname: string; index: number | null };

/** A node's executor name ("gpu04", or "7"), and the index it reads as ("7" -> 7), if any. */
export function parseNodeRef(segment: string): NodeRef {
  const parsed = nodeIndexField.safeParse(segment);
  return { hostname: segment, index: parsed.success ? parsed.data : null };
}
