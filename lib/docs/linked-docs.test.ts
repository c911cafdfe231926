import { describe, expect, it } from "vitest";
import { LINKED_DOCS, linkedDocOf } from "./linked-docs";

describe("linkedDocOf", () => {
  it("serves the listed documents, with or without .md", () => {
    expect(linkedDocOf("concepts.md")).toBe("concepts.md");
    expect(linkedDocOf("concepts")).toBe("concepts.md");
  });

  it("serves nothing else: no other file, no path, no inherited key", () => {
    for (const name of [
      "README.md",
      "../package.json",
      "decisions/010-engine-scheduling-pass.md",
      "toString",
      "constructor",
      "",
    ]) {
      expect(linkedDocOf(name)).toBeNull();
    }
    expect(Object.keys(LINKED_DOCS).every((name) => name.endsWith(".md"))).toBe(true);
  });
});
