// Inputs of budget edits, parsed at the edge (route handlers and the editor's form share
// these). Names allow dots because personal leaves are named after an email's local part
// ("riley.chen"); see docs/decisions/030-budget-edits.md.
import { z } from "zod";
import { isWeightTooSmall, MIN_NONZERO_WEIGHT } from "../engine/budget-tree";
import { int4 } from "./numbers";
import { lineString, textString } from "../text";

export const MAX_WEIGHT = 1_000_000;
export const MAX_NAME_LENGTH = 64;
export const MAX_REASON_LENGTH = 500;
export const MAX_CHILDREN = 1_000;
export const MAX_EMAIL_LENGTH = 254;

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const budgetNameSchema = lineString({ error: "Enter a name." })
  .trim()
  .min(1, { message: "Enter a name.", abort: true })
  .max(MAX_NAME_LENGTH, `Use at most ${MAX_NAME_LENGTH} characters.`)
  .regex(
    NAME_PATTERN,
    "Use letters, digits, '.', '-' and '_' only, starting with a letter or digit.",
  );

export const weightSchema = z
  .number({ error: "Enter a number." })
  .refine(Number.isFinite, "Enter a finite number.")
  .min(0, "A weight cannot be negative.")
  .refine((weight) => !isWeightTooSmall(weight), `A weight is 0 or at least ${MIN_NONZERO_WEIGHT}.`)
  .max(MAX_WEIGHT, `A weight is at most ${MAX_WEIGHT.toLocaleString("en-US")}.`)
  .meta({
    description: `0, or from ${MIN_NONZERO_WEIGHT} to ${MAX_WEIGHT.toLocaleString("en-US")}.`,
  });

const ID_MESSAGE = "Give an existing child's id, or leave the id out for a new child.";

/** A node's id in a body (a child of an edit); path parameters go through parsePathParams. */
export const nodeIdSchema = lineString({ error: ID_MESSAGE })
  .trim()
  .min(1, ID_MESSAGE)
  .max(64, "An id has at most 64 characters.");

/** What a child is, for the messages of a body that is not shaped like one. */
const CHILD_SHAPE = 'an object { "name", "weight" }, plus "id" for an existing child';

export const childEditSchema = z.strictObject(
  {
    id: nodeIdSchema.optional(),
    name: budgetNameSchema,
    weight: weightSchema,
  },
  {
    // Only the child's own type: an unknown key keeps zod's message, which names the key.
    error: (issue) => (issue.code === "invalid_type" ? `Each child is ${CHILD_SHAPE}.` : undefined),
  },
);

/**
 * Body of PUT /api/v1/budgets/{nodeId}/children. Omitted children are removed. Unknown keys are
 * refused, as in every other body: a misspelt field would otherwise be dropped in silence.
 */
export const setChildrenSchema = z
  .strictObject(
    {
      version: int4({
        error: "Send the version you edited.",
        min: 1,
        minMessage: "Versions start at 1.",
      }),
      reason: textString({ error: "Give a reason for the change." })
        .trim()
        .min(1, "Give a reason for the change.")
        .max(MAX_REASON_LENGTH, `Keep the reason under ${MAX_REASON_LENGTH} characters.`),
      children: z
        .array(childEditSchema, {
          error: (issue) =>
            issue.input === undefined
              ? `Required: a list of the children, each ${CHILD_SHAPE} (an empty list removes them all).`
              : `Must be a list of the children, each ${CHILD_SHAPE}.`,
        })
        .max(MAX_CHILDREN, `A budget has at most ${MAX_CHILDREN} children.`),
    },
    {
      error: (issue) =>
        issue.code === "invalid_type"
          ? 'Send a JSON object: { "version", "reason", "children" }.'
          : undefined,
    },
  )
  .superRefine((body, context) => {
    const seenNames = new Map<string, string>();
    const seenIds = new Set<string>();
    body.children.forEach((child, index) => {
      const key = child.name.toLowerCase();
      const taken = seenNames.get(key);
      if (taken !== undefined) {
        const same = taken === child.name ? "" : " (names differ only in case)";
        context.addIssue({
          code: "custom",
          path: ["children", index, "name"],
          message: `Another child is already named "${taken}"${same}.`,
        });
      } else {
        seenNames.set(key, child.name);
      }
      if (child.id !== undefined) {
        if (seenIds.has(child.id)) {
          context.addIssue({
            code: "custom",
            path: ["children", index, "id"],
            message: "This child appears twice.",
          });
        }
        seenIds.add(child.id);
      }
    });
  });

export type SetChildrenInput = z.infer<typeof setChildrenSchema>;
export type ChildEdit = z.infer<typeof childEditSchema>;

/** Body of POST and DELETE on /members and /leads: the person, by email. */
export const personSchema = z.strictObject(
  {
    email: lineString({ error: "Enter an email address." })
      .trim()
      .toLowerCase()
      .max(MAX_EMAIL_LENGTH, `An email address has at most ${MAX_EMAIL_LENGTH} characters.`)
      .pipe(z.email("Enter an email address.")),
  },
  {
    error: (issue) =>
      issue.code === "invalid_type" ? 'Send a JSON object: { "email" }.' : undefined,
  },
);

export type PersonInput = z.infer<typeof personSchema>;

/** Warnings do not block a save: they say what a valid split will do. */
export function getSplitWarnings(children: readonly { weight: number }[]): string[] {
  if (children.length > 0 && children.every((child) => child.weight === 0)) {
    return ["Every child weighs 0: none of them is owed any GPU time until one weighs more."];
  }
  return [];
}

/** A child's part of its parent that an edit cuts to under this fraction of what it was. */
const SHARP_CUT = 0.1;

/**
 * The children whose part of the parent an edit cuts to under a tenth of what it was (from at
 * least 1%), while they keep a weight: a weight typed too large elsewhere ("1e3", a 0 too
 * many) reads like that more often than a meant cut, so the editor asks before saving.
 *
 * @example getSharpCutWarnings([{ id: "a", name: "a", weight: 1 }, { id: "b", name: "b", weight: 1 }],
 *   [{ id: "a", name: "a", weight: 1 }, { id: "b", name: "b", weight: 1000 }], formatPercent)
 * // ["a: its part falls from 50.0% to 0.10%, under a tenth; is a weight mistyped?"]
 */
export function getSharpCutWarnings(
  before: readonly { id: string; name: string; weight: number }[],
  after: readonly { id?: string | undefined; name: string; weight: number }[],
  formatPart: (fraction: number) => string,
): string[] {
  const total = (children: readonly { weight: number }[]) =>
    children.reduce((sum, child) => sum + child.weight, 0);
  const beforeTotal = total(before);
  const afterTotal = total(after);
  if (beforeTotal <= 0 || afterTotal <= 0) return [];
  return after.flatMap((child) => {
    const old = before.find((candidate) => candidate.id === child.id);
    if (!old || child.weight <= 0) return [];
    const was = old.weight / beforeTotal;
    const now = child.weight / afterTotal;
    if (was < 0.01 || now >= was * SHARP_CUT) return [];
    return [
      `${child.name}: its part falls from ${formatPart(was)} to ${formatPart(now)}, under a tenth; is a weight mistyped?`,
    ];
  });
}
