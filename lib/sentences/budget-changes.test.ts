import { describe, expect, it } from "vitest";
import { adoptionReason, peopleChangeReason } from "./budget-changes";

describe("peopleChangeReason", () => {
  it("says who was added or removed, and as lead or member", () => {
    expect(peopleChangeReason({ isAdding: true, name: "Priya Raman", role: "members" })).toBe(
      "Added Priya Raman as member",
    );
    expect(peopleChangeReason({ isAdding: false, name: "Lin Wei", role: "leads" })).toBe(
      "Removed Lin Wei as lead",
    );
  });
});

describe("adoptionReason", () => {
  it("names the draft's day (UTC) and the periods of its finished what-ifs, newest first", () => {
    const made = new Date("2026-11-02T23:30:00Z");
    expect(adoptionReason(made, ["Oct 2026"], "eval needs it")).toBe(
      "Adopted the draft of 2026-11-02 after a what-if on Oct 2026: eval needs it",
    );
    expect(adoptionReason(made, [], "eval needs it")).toBe(
      "Adopted the draft of 2026-11-02: eval needs it",
    );
    expect(adoptionReason(made, ["1 Dec on b200", "Nov 2026", "Oct 2026"], "x")).toBe(
      "Adopted the draft of 2026-11-02 after what-ifs on 1 Dec on b200; Nov 2026; Oct 2026: x",
    );
    expect(adoptionReason(made, ["a", "b", "c", "d", "e"], "x")).toBe(
      "Adopted the draft of 2026-11-02 after what-ifs on a; b; c and 2 more: x",
    );
  });
});
