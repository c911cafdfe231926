// A SLURM job's comment holds two things: the tags a researcher gave with sbatch
// (`--comment=allot:free`, `allot:priority=high`) and, after them, the status the bridge writes
// ("Allot: #3 in Allot's queue..."). The bridge rewrites the status but keeps the tags, so a job
// refused and offered again later still carries them (docs/slurm.md, "How sbatch options become
// an Allot job").
import type { SlurmJob } from "./slurm-read";

/** SLURM comments are kept short enough for squeue's column. */
export const COMMENT_MAX_CHARS = 250;
/** Where the bridge's status starts in a comment; the tags are before it. */
export const STATUS_PREFIX = "Allot: ";

const TAG = /\ballot:(?:free|priority=(?:low|normal|high))(?![\w=-])/gi;

/**
 * The researcher's `allot:` tags in a comment, lowercased, each once, in their order. Only the
 * part before the bridge's status is read.
 *
 * @example userTagsOf("allot:priority=HIGH Allot: not queued: ...") // ["allot:priority=high"]
 */
export function userTagsOf(comment: string): string[] {
  const at = comment.indexOf(STATUS_PREFIX);
  const own = at === -1 ? comment : comment.slice(0, at);
  return [...new Set((own.match(TAG) ?? []).map((tag) => tag.toLowerCase()))];
}

/**
 * The comment the bridge writes: the tags of `comment` (the job's comment now), then
 * "Allot: <sentence>", one line, at most COMMENT_MAX_CHARS (the sentence is cut, not the tags).
 *
 * @example commentText("not queued: no such budget.", "allot:free") // "allot:free Allot: not queued: no such budget."
 */
export function commentText(sentence: string, comment: string): string {
  const tags = userTagsOf(comment);
  const lead = tags.length === 0 ? "" : `${tags.join(" ")} `;
  const line = `${lead}${STATUS_PREFIX}${sentence}`.replace(/\s+/g, " ").trim();
  return line.length <= COMMENT_MAX_CHARS ? line : `${line.slice(0, COMMENT_MAX_CHARS - 1)}…`;
}

/** Allot's priority within the team: `--nice` below 0 is high, above 0 low; a comment tag wins. */
export function priorityOf(job: SlurmJob): "low" | "normal" | "high" {
  const tag = userTagsOf(job.comment).find((entry) => entry.startsWith("allot:priority="));
  if (tag) return tag.slice("allot:priority=".length) as "low" | "normal" | "high";
  return job.nice < 0 ? "high" : job.nice > 0 ? "low" : "normal";
}

/**
 * The scheduling contract: `--time-min`, or 0 (free, unprotected, uncharged) for a job whose
 * comment says `allot:free` (SLURM cannot tell `--time-min=0` from none), else null for the
 * cluster's default.
 */
export function minRuntimeOf(job: SlurmJob): number | null {
  if (userTagsOf(job.comment).includes("allot:free")) return 0;
  return job.minRuntimeSec;
}
