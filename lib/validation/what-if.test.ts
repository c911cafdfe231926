import { describe, expect, it } from "vitest";
import { zodIssues } from "../api/respond";
import { startWhatIfSchema } from "./what-if";

function issuesOf(body: unknown) {
  const result = startWhatIfSchema.safeParse(body);
  return result.success ? [] : zodIssues(result.error);
}

describe("startWhatIfSchema", () => {
  it("accepts nothing (the review's default period, all clusters) or both ends and some clusters", () => {
    expect(issuesOf({})).toEqual([]);
    expect(issuesOf({ from: "2026-10-01", to: "2026-11-01", clusters: ["h100"] })).toEqual([]);
    expect(startWhatIfSchema.parse({ hasControl: true })).toEqual({ hasControl: true });
  });

  it("names the field of each problem", () => {
    expect(issuesOf({ from: "2026-10-01" }).map((issue) => issue.path)).toEqual(["to"]);
    expect(issuesOf({ from: "yesterday", to: "2026-11-01" }).map((issue) => issue.path)).toEqual([
      "from",
    ]);
    expect(issuesOf({ from: "2026-11-01", to: "2026-10-01" })).toEqual([
      { path: "to", message: "The period must end after it starts." },
    ]);
    expect(issuesOf({ from: "2026-01-01", to: "2026-06-01" })[0]?.message).toBe(
      "Replay at most 92 days at a time.",
    );
    expect(issuesOf({ clusters: [] }).map((issue) => issue.path)).toEqual(["clusters"]);
    expect(issuesOf({ hasControl: "yes" })).toEqual([
      { path: "hasControl", message: "Give true or false." },
    ]);
    expect(issuesOf({ period: "last" }).map((issue) => issue.path)).toEqual(["(body)"]);
  });
});
