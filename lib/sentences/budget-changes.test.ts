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
  it("names the draft's day (UTC) and the latest what-if's period when there is one", () => {
    const made = new Date("2026-11-02T23:30:00Z");
    expect(adoptionReason(made, "Oct 2026", "eval needs it")).toBe(
      "Adopted the draft of 2026-11-02 after a what-if on Oct 2026: eval needs it",
    );
    expect(adoptionReason(made, null, "eval needs it")).toBe(
      "Adopted the draft of 2026-11-02: eval needs it",
    );
  });
});
