// Where a link inside a served document leads (app/(app)/docs): another served document, a
// decision record, a heading, or another site; null for a repository file the app does not serve.
import { linkedDocOf } from "./linked-docs";

/** docs/openapi.json is a copy of what the server serves here. */
const OPENAPI_URL = "/api/v1/openapi.json";

/** Decision records are served by file name, `docs/decisions/NNN-name.md` only. */
export const DECISION_FILE = /^\d{3}-[a-z0-9-]+\.md$/;

/**
 * The app's URL for a link written in the document `fromFile` (`"ranking.md"`, or
 * `"decisions/092-debug-waits.md"`): a served document's `/docs/...` page with its heading,
 * a heading of the same page, or an absolute http(s) URL as written; null otherwise (a source
 * file, the README), which the page shows as text.
 *
 * @example docHref("decisions/092-debug-waits.md#measured", "simulations.md") // "/docs/decisions/092-debug-waits.md#measured"
 */
export function docHref(href: string, fromFile: string): string | null {
  if (/^https?:\/\//i.test(href)) return href;
  if (href.startsWith("#")) return href;
  const [target = "", hash] = href.split("#", 2);
  const anchor = hash ? `#${hash}` : "";
  const parts = fromFile.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else if (part !== "." && part !== "") parts.push(part);
  }
  const path = parts.join("/");
  if (path === fromFile && anchor) return anchor;
  if (path === "openapi.json") return OPENAPI_URL;
  const served = linkedDocOf(path);
  if (served) return `/docs/${served}${anchor}`;
  const [folder, file, ...rest] = parts;
  if (folder === "decisions" && file && rest.length === 0 && DECISION_FILE.test(file)) {
    return `/docs/decisions/${file}${anchor}`;
  }
  return null;
}
