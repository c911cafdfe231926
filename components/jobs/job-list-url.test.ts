import { describe, expect, it } from "vitest";
import { parseJobListQuery } from "@/lib/validation/job-list";
import { formatShowing, jobListHref, sortHref } from "./job-list-url";

const query = (raw: Record<string, string>) => parseJobListQuery(raw).query;

describe("jobs list links", () => {
  it("leaves defaults out and resets the page when a filter changes", () => {
    const current = query({ page: "3", cluster: "b300" });
    expect(jobListHref(current, { state: "running" })).toBe("/jobs?state=running&cluster=b300");
    expect(jobListHref(current, { page: 4 })).toBe("/jobs?cluster=b300&page=4");
    expect(jobListHref(current, { cluster: undefined })).toBe("/jobs");
  });

  it("a header sorts by its column, then flips; the default direction is left out", () => {
    const current = query({});
    expect(sortHref(current, "name")).toBe("/jobs?sort=name");
    expect(sortHref(query({ sort: "name" }), "name")).toBe("/jobs?sort=name&dir=desc");
    expect(sortHref(current, "submitted")).toBe("/jobs?dir=asc");
  });

  it("the count line, with thousands and an en dash", () => {
    expect(formatShowing(1, 50, 50, 1234)).toBe("Showing 1–50 of 1,234");
    expect(formatShowing(25, 50, 34, 1234)).toBe("Showing 1,201–1,234 of 1,234");
    expect(formatShowing(1, 50, 0, 0)).toBe("Showing 0 of 0");
  });
});
