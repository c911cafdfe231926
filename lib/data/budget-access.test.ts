import { describe, expect, it } from "vitest";
import { canEditBelow } from "./budget-access";

// lab -> language -> lm-pretrain -> riley ; lab -> vision
const parentOf = new Map<string, string | null>([
  ["lab", null],
  ["language", "lab"],
  ["vision", "lab"],
  ["lm-pretrain", "language"],
  ["riley", "lm-pretrain"],
]);
const member = { isAdmin: false };

describe("canEditBelow (leads of a node or of any ancestor)", () => {
  it("lets an admin edit anywhere, the root included", () => {
    expect(canEditBelow({ isAdmin: true }, "lab", parentOf, new Set())).toBe(true);
  });

  it("lets a program lead edit the program and everything below it", () => {
    const leads = new Set(["language"]);
    expect(canEditBelow(member, "language", parentOf, leads)).toBe(true);
    expect(canEditBelow(member, "lm-pretrain", parentOf, leads)).toBe(true);
    expect(canEditBelow(member, "riley", parentOf, leads)).toBe(true);
  });

  it("refuses a lead's sibling program and the nodes above", () => {
    const leads = new Set(["lm-pretrain"]);
    expect(canEditBelow(member, "vision", parentOf, leads)).toBe(false);
    expect(canEditBelow(member, "language", parentOf, leads)).toBe(false);
    expect(canEditBelow(member, "lab", parentOf, leads)).toBe(false);
  });

  it("refuses a researcher who leads nothing, and unknown nodes", () => {
    expect(canEditBelow(member, "riley", parentOf, new Set())).toBe(false);
    expect(canEditBelow(member, "nowhere", parentOf, new Set(["language"]))).toBe(false);
  });

  it("stops on a cycle instead of looping", () => {
    const cyclic = new Map<string, string | null>([
      ["a", "b"],
      ["b", "a"],
    ]);
    expect(canEditBelow(member, "a", cyclic, new Set(["z"]))).toBe(false);
  });
});
