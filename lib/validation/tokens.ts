// Personal tokens: what a person sends to create one (the tokens page's form and
// POST /api/v1/tokens).
import { z } from "zod";
import { formInt4, int4 } from "./numbers";
import { lineString } from "../text";

export const MAX_TOKEN_DAYS = 3650;

const name = lineString("Name the token (e.g. the laptop or script that uses it).")
  .trim()
  .min(1, "Name the token (e.g. the laptop or script that uses it).")
  .max(80, "A token name has at most 80 characters.");

const dayBounds = {
  min: 1,
  max: MAX_TOKEN_DAYS,
  minMessage: "A token lasts at least 1 day.",
  maxMessage: `A token lasts at most ${MAX_TOKEN_DAYS} days; leave it empty for no expiry.`,
};

/** The API's body: `expiresInDays` null or absent means the token never expires. */
export const createPersonalTokenSchema = z.strictObject({
  name,
  expiresInDays: int4(dayBounds).nullable().default(null),
});

export type CreatePersonalTokenInput = z.output<typeof createPersonalTokenSchema>;

/** The page's form: an empty expiry field means never. */
export const createPersonalTokenFormSchema = z.object({
  name,
  expiresInDays: z
    .union([
      z.literal("").transform(() => null),
      formInt4({ ...dayBounds, error: "Choose an expiry." }),
    ])
    .optional()
    .transform((value) => value ?? null),
});

/**
 * GET /api/v1/tokens's query: the caller's own tokens (default), or, for admins, everyone
 * else's in force (a person who leaves is cut off by revoking them).
 */
export const tokenListQuerySchema = z.object({
  scope: z
    .enum(["own", "others"], "Give scope=own (your tokens) or scope=others (admins).")
    .default("own")
    .meta({
      description:
        "own: the caller's tokens; others (admins): everyone else's in force, each with its owner.",
    }),
});
