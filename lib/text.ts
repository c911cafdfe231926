// The one rule for strings that reach the database (docs/decisions/081-input-at-the-edge.md).
// PostgreSQL refuses NUL in text and jsonb, and a lone UTF-16 surrogate in jsonb, so such a
// value used to fail deep in a query as a 500. Every string field of every schema is built
// from lineString (names, ids, emails, cluster names: no control character at all) or
// textString (reasons, messages: tab and line breaks allowed), and the value is checked as
// sent, before any trim, so what is refused does not depend on where it sits.
import { z } from "zod";

/** C0 controls (U+0000-U+001F), DEL and the C1 controls (U+0080-U+009F). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same without tab and line feed; a carriage return is allowed only before a line feed. */
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `line`: one line of a name or an id. `text`: free text that may span lines. */
export type TextKind = "line" | "text";

function codeOf(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Why `value` cannot be stored as `kind`, or null when it can. Positions count from 1.
 *
 * @example textProblem("lm\u0000pretrain", "line")
 * // "Remove the control character U+0000 at position 3: names and ids cannot contain control characters."
 * @example textProblem("first line\nsecond", "text") // null
 */
export function textProblem(value: string, kind: TextKind): string | null {
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate) {
    return `Remove the broken character at position ${surrogate.index + 1} (a lone UTF-16 surrogate): send valid Unicode text.`;
  }
  const control = (kind === "line" ? CONTROL : TEXT_CONTROL).exec(value);
  if (!control) return null;
  const where = `the control character ${codeOf(control[0])} at position ${control.index + 1}`;
  return kind === "line"
    ? `Remove ${where}: names and ids cannot contain control characters.`
    : `Remove ${where}: text may contain tabs and line breaks, but no other control characters.`;
}

type StringParams = Parameters<typeof z.string>[0];

function checkedString(kind: TextKind, params: StringParams): z.ZodString {
  return z.string(params).check((context) => {
    const problem = textProblem(context.value, kind);
    // continue: false - the field's other checks (and its object's refinements) see no bad value.
    if (problem) {
      context.issues.push({
        code: "custom",
        message: problem,
        input: context.value,
        continue: false,
      });
    }
  });
}

/**
 * A one-line string field (a name, an id, an email, a cluster name): refuses every control
 * character (tab and line breaks too) and lone surrogates. Chain trim, min and max as usual.
 *
 * @example lineString({ error: "Enter a name." }).trim().min(1).max(64)
 */
export function lineString(params?: StringParams): z.ZodString {
  return checkedString("line", params);
}

/**
 * A free-text field (a reason, a message): tab and line breaks are kept, CRLF becomes LF;
 * any other control character and lone surrogates are refused.
 *
 * @example textString().trim().min(1).max(500)
 */
export function textString(params?: StringParams): z.ZodString {
  return checkedString("text", params).overwrite((value) => value.replaceAll("\r\n", "\n"));
}
