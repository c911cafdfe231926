import { describe, expect, it } from "vitest";
import { firstValues, jobListQuerySchema, parseJobListQuery } from "./job-list";

describe("jobs list query", () => {
  it("fills defaults: newest first, page 1, 50 rows", () => {
    expect(parseJobListQuery({})).toEqual({
      query: { sort: "submitted", dir: "desc", page: 1, perPage: 50 },
      notes: [],
    });
  });

  it("names ascend by default; empty fields mean not given", () => {
    const { query } = parseJobListQuery({ sort: "name", state: "", q: "  sweep " });
    expect(query).toMatchObject({ sort: "name", dir: "asc", q: "sweep" });
    expect(query.state).toBeUndefined();
  });

  it("the page drops bad values and says which and why, keeping the good ones", () => {
    const { query, notes } = parseJobListQuery({ state: "done", page: "0", cluster: "b300" });
    expect(query).toMatchObject({ cluster: "b300", page: 1 });
    expect(query.state).toBeUndefined();
    expect(notes).toEqual([
      "Ignored state=done: State is one of pending, running, completed, failed, preempted, cancelled.",
      "Ignored page=0: Page starts at 1.",
    ]);
  });

  it("the API's strict parse refuses with the field", () => {
    const result = jobListQuerySchema.safeParse({ perPage: "30" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ["perPage"],
      message: "Rows per page is one of 25, 50, 100.",
    });
  });

  it("firstValues: the first of repeated keys, from either shape", () => {
    expect(firstValues(new URLSearchParams("state=running&state=pending&q=x"))).toEqual({
      state: "running",
      q: "x",
    });
    expect(firstValues({ state: ["running", "pending"], q: undefined })).toEqual({
      state: "running",
    });
  });
});
