// The decision records of docs/decisions, served read-only under /docs/decisions by file name.
import "server-only";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { DECISION_FILE } from "./doc-links";

const FOLDER = join(process.cwd(), "docs", "decisions");

export type Decision = { file: string; title: string; body: string };

/** A record's title is its first heading: "011. A share guard on preemption between budgets". */
function splitTitle(text: string, file: string): { title: string; body: string } {
  const match = /^# (.*)\n+/.exec(text);
  return match
    ? { title: match[1]!, body: text.slice(match[0].length) }
    : { title: file, body: text };
}

/** The record of that file name, or null for a name that is not one (never a path). */
export async function readDecision(name: string): Promise<Decision | null> {
  if (!DECISION_FILE.test(name)) return null;
  try {
    const text = await readFile(join(FOLDER, name), "utf8");
    return { file: name, ...splitTitle(text, name) };
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return null;
    throw error;
  }
}

let listing: Promise<{ file: string; title: string }[]> | null = null;

/** Every record, in number order, with its title: read once, as the running version has them. */
export function listDecisions(): Promise<{ file: string; title: string }[]> {
  listing ??= readTitles().catch((error: unknown) => {
    listing = null;
    throw error;
  });
  return listing;
}

async function readTitles(): Promise<{ file: string; title: string }[]> {
  const files = (await readdir(FOLDER)).filter((file) => DECISION_FILE.test(file)).sort();
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(join(FOLDER, file), "utf8");
      return { file, title: splitTitle(text, file).title };
    }),
  );
}
