// Inputs of drafts and what-if runs. A draft's body is exactly a children edit's
// (setChildrenSchema): the same checks, the same field paths, its reason kept for adoption.
import { z } from "zod";
import { ADOPT_REASON_MESSAGE, requiredReason } from "./oversight";
import { setChildrenSchema } from "./budgets";
import { instantDate } from "./dates";
import { lineString } from "../text";

/** POST /api/v1/budgets/{nodeId}/drafts: `{ version, reason, children }`, as a children edit. */
export const createDraftSchema = setChildrenSchema;
export type CreateDraftInput = z.infer<typeof createDraftSchema>;

/** The longest period a what-if replays (a quarter). */
export const MAX_WHAT_IF_DAYS = 92;

/** More clusters than any site has: a longer list is a mistake, not a choice. */
export const MAX_WHAT_IF_CLUSTERS = 100;

const instant = instantDate();

/**
 * POST /api/v1/drafts/{id}/what-ifs: the period (default: the review's, `defaultReviewPeriod`:
 * the last full calendar month once the roll-ups cover it, else the 30 whole days before today),
 * the clusters (default: all) and whether to replay the current split too, as a control
 * (default: no; about twice the time). `to` is exclusive.
 */
export const startWhatIfSchema = z
  .strictObject({
    from: instant.optional().meta({
      description: "The period's first instant (ISO 8601; a date is its midnight, UTC).",
    }),
    to: instant.optional().meta({
      description:
        "The instant the period ends, not included: to=2026-12-01 replays up to the end of " +
        "2026-11-30 (the review's `to` is a last day, included).",
    }),
    clusters: z
      .array(lineString().trim().min(1).max(64))
      .min(1, "Choose at least one cluster.")
      .max(MAX_WHAT_IF_CLUSTERS, `Choose at most ${MAX_WHAT_IF_CLUSTERS} clusters.`)
      .optional(),
    hasControl: z.boolean("Give true or false.").optional(),
  })
  .superRefine((body, context) => {
    if ((body.from === undefined) !== (body.to === undefined)) {
      context.addIssue({
        code: "custom",
        path: [body.from === undefined ? "from" : "to"],
        message: "Give both ends of the period, or neither for the review's default period.",
      });
      return;
    }
    // zod still runs this check when a field failed its own (then it is not a Date).
    if (!(body.from instanceof Date) || !(body.to instanceof Date)) return;
    const days = (body.to.getTime() - body.from.getTime()) / 86_400_000;
    if (days <= 0) {
      context.addIssue({
        code: "custom",
        path: ["to"],
        message: "The period must end after it starts.",
      });
    } else if (days > MAX_WHAT_IF_DAYS) {
      context.addIssue({
        code: "custom",
        path: ["to"],
        message: `Replay at most ${MAX_WHAT_IF_DAYS} days at a time.`,
      });
    }
  });
export type StartWhatIfInput = z.infer<typeof startWhatIfSchema>;

/**
 * Body of POST /api/v1/drafts/{id}/adopt: why the split is put in force, required (issue #35:
 * a lab-wide change is one click and must say why); the history entry names the draft too.
 */
export const adoptDraftSchema = z.strictObject({ reason: requiredReason(ADOPT_REASON_MESSAGE) });
