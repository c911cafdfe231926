// Whole numbers that land in an Int (int4) column: zod's int() takes any safe integer (up to
// 2^53), PostgreSQL refuses anything past 2^31 - 1, and the query used to fail as a 500.
// docs/decisions/081-input-at-the-edge.md.
import { z } from "zod";

export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

export type Int4Options = {
  /** When the value is no number (or NaN, or infinite). */
  error?: string;
  /** When it is not whole. */
  whole?: string;
  /** The field's own bounds, inside the int4 range (clamped to it). */
  min?: number;
  max?: number;
  minMessage?: string;
  maxMessage?: string;
};

/**
 * A whole number that fits an int4 column, within the field's own `min` and `max` when given:
 * one issue per broken bound, naming the bound.
 *
 * @example int4({ min: 1, minMessage: "A job needs at least 1 GPU." }).parse(2 ** 31)
 * // throws: "Use at most 2,147,483,647."
 */
export function int4(options: Int4Options = {}): z.ZodNumber {
  const min = Math.max(options.min ?? INT4_MIN, INT4_MIN);
  const max = Math.min(options.max ?? INT4_MAX, INT4_MAX);
  return z
    .number(options.error === undefined ? undefined : { error: options.error })
    .int(options.whole ?? "Use a whole number.")
    .min(min, options.minMessage ?? `Use at least ${min.toLocaleString("en-US")}.`)
    .max(max, options.maxMessage ?? `Use at most ${max.toLocaleString("en-US")}.`);
}

/**
 * A whole number from a form field ("12"): digits only, so "" is not 0 and "1e3" is not
 * 1000 (z.coerce.number() would take both), then the int4 rule.
 */
export function formInt4(options: Int4Options = {}) {
  return z
    .string(options.error === undefined ? undefined : { error: options.error })
    .trim()
    .regex(/^-?\d{1,10}$/, options.error ?? "Use a whole number.")
    .transform(Number)
    .pipe(int4(options));
}
