import { describe, expect, it } from "vitest";
import {
  COMMENT_MAX_CHARS,
  commentText,
  minRuntimeOf,
  priorityOf,
  userTagsOf,
} from "./job-comment";
import type { SlurmJob } from "./slurm-read";
import { slurmJob } from "./test-fixtures";

/** Job 5 with a --time-min of 2 h: what the tags and --nice change is what is read. */
const job = (extra: Partial<SlurmJob>): SlurmJob =>
  slurmJob("5", { minRuntimeSec: 7200, ...extra });

describe("userTagsOf", () => {
  it("reads the tags before the bridge's status, lowercased, each once", () => {
    expect(userTagsOf("allot:priority=HIGH run 3 ALLOT:FREE allot:free")).toEqual([
      "allot:priority=high",
      "allot:free",
    ]);
  });

  it("ignores tag-like text in the bridge's status and tags it does not know", () => {
    expect(userTagsOf("Allot: not queued: use allot:free or allot:priority=low")).toEqual([]);
    expect(userTagsOf("allot:priority=urgent allot:freedom allot:free-ish")).toEqual([]);
  });
});

describe("commentText", () => {
  it("writes the status alone when the job has no tags", () => {
    expect(commentText("#3 in Allot's queue.\n Waits.", "my own note")).toBe(
      "Allot: #3 in Allot's queue. Waits.",
    );
  });

  it("keeps the researcher's tags in front of the status, through any number of rewrites", () => {
    const refused = commentText("not queued: too long.", "allot:priority=high");
    expect(refused).toBe("allot:priority=high Allot: not queued: too long.");
    const waiting = commentText("#1 in Allot's queue. Waits for 8 GPUs.", refused);
    expect(waiting).toBe("allot:priority=high Allot: #1 in Allot's queue. Waits for 8 GPUs.");
    expect(commentText("Started at 14:05 UTC on nodes n[1-2].", waiting)).toBe(
      "allot:priority=high Allot: Started at 14:05 UTC on nodes n[1-2].",
    );
  });

  it("cuts a long status, never the tags, to COMMENT_MAX_CHARS", () => {
    const text = commentText("x".repeat(400), "allot:free allot:priority=low");
    expect(text).toHaveLength(COMMENT_MAX_CHARS);
    expect(text.startsWith("allot:free allot:priority=low Allot: xxx")).toBe(true);
    expect(text.endsWith("x…")).toBe(true);
  });
});

describe("what a job offered again after a refusal says", () => {
  it("keeps priority=high once the bridge wrote its refusal (was: normal)", () => {
    const comment = commentText("not queued: too long.", "allot:priority=high");
    expect(priorityOf(job({ comment }))).toBe("high");
  });

  it("keeps allot:free (minimum runtime 0) once the bridge wrote its refusal", () => {
    const comment = commentText("not queued: too long.", "allot:free");
    expect(minRuntimeOf(job({ comment }))).toBe(0);
  });

  it("falls back to --nice and --time-min without tags", () => {
    const comment = commentText("not queued: too long.", "");
    expect(priorityOf(job({ comment, nice: -5 }))).toBe("high");
    expect(priorityOf(job({ comment, nice: 5 }))).toBe("low");
    expect(priorityOf(job({ comment }))).toBe("normal");
    expect(minRuntimeOf(job({ comment }))).toBe(7200);
  });

  it("lets a tag win over --nice", () => {
    expect(priorityOf(job({ comment: "allot:priority=low", nice: -5 }))).toBe("low");
  });
});
