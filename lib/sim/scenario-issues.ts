import type { z } from "zod";

/** One problem in a scenario file: a JSON path (`jobs[12].minRuntime`) and a sentence. */
export type ScenarioIssue = { path: string; message: string };

/** Formats a JSON path as `jobs[12].minRuntime`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(file)" : out;
}

/** Turns zod's issues into scenario issues, prefixing their paths (e.g. `["jobs", 3]`). */
export function toIssues(error: z.ZodError, prefix: PropertyKey[]): ScenarioIssue[] {
  return error.issues.map((issue) => ({
    path: formatIssuePath([...prefix, ...issue.path]),
    message: issue.message,
  }));
}

/** Sorts issues in file order: by top-level key, then element index, then the rest of the path. */
export function compareIssues(a: ScenarioIssue, b: ScenarioIssue): number {
  const keyA = /^([a-zA-Z]+)(?:\[(\d+)\])?/.exec(a.path);
  const keyB = /^([a-zA-Z]+)(?:\[(\d+)\])?/.exec(b.path);
  const nameA = keyA?.[1] ?? "";
  const nameB = keyB?.[1] ?? "";
  if (nameA !== nameB) return nameA < nameB ? -1 : 1;
  const indexA = Number(keyA?.[2] ?? -1);
  const indexB = Number(keyB?.[2] ?? -1);
  if (indexA !== indexB) return indexA - indexB;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
