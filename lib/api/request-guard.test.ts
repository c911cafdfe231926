import { describe, expect, it } from "vitest";
import { findBadSegment } from "./request-guard";

describe("findBadSegment", () => {
  const malformed = (segment: string) => ({ segment, problem: "is not valid percent-encoding" });

  it("names the first segment with malformed percent-encoding", () => {
    expect(findBadSegment("/api/v1/jobs/%E0%A4%A")).toEqual(malformed("%E0%A4%A"));
    expect(findBadSegment("/api/v1/jobs/%zz/cancel")).toEqual(malformed("%zz"));
    expect(findBadSegment("/api/v1/jobs/50%")).toEqual(malformed("50%"));
    expect(findBadSegment("/api/v1/budgets/%C0%AF/%zz")).toEqual(malformed("%C0%AF"));
  });

  it("names a segment that decodes to a NUL", () => {
    const nul = (segment: string) => ({ segment, problem: "decodes to a NUL character" });
    expect(findBadSegment("/api/v1/jobs/%00")).toEqual(nul("%00"));
    expect(findBadSegment("/api/v1/jobs/abc%00def/cancel")).toEqual(nul("abc%00def"));
  });

  it("accepts plain and well-encoded segments, an encoded slash and non-ASCII text", () => {
    expect(findBadSegment("/api/v1/jobs/cmf2x9")).toBeNull();
    expect(findBadSegment("/api/v1/clusters/h%31%30%30/queue")).toBeNull();
    expect(findBadSegment("/api/v1/jobs/a%2Fb")).toBeNull();
    expect(findBadSegment("/api/v1/jobs/%E0%A4%A8")).toBeNull();
    expect(findBadSegment("/api/v1/")).toBeNull();
  });
});
