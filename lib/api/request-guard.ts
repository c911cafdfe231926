// What proxy.ts refuses before a request reaches a route: paths whose segments do not decode.
// Pure.

export type BadSegment = { segment: string; problem: string };

/**
 * The first segment of `pathname` (as sent, still percent-encoded) that does not decode to
 * text a route can use: malformed percent-encoding (`%E0%A4%A`, `%zz`), where Next would
 * answer a plain-text 500, or a NUL (`%00`), which PostgreSQL refuses in text. Null when
 * every segment is fine.
 *
 * @example findBadSegment("/api/v1/jobs/%00/cancel") // { segment: "%00", problem: "decodes to a NUL character" }
 */
export function findBadSegment(pathname: string): BadSegment | null {
  for (const segment of pathname.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return { segment, problem: "is not valid percent-encoding" };
    }
    if (decoded.includes("\u0000")) return { segment, problem: "decodes to a NUL character" };
  }
  return null;
}
