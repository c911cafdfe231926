import { describe, expect, it } from "vitest";
import { budgetColours, programKey, PROGRAM_COLOURS } from "./palette";

describe("budget colours", () => {
  it("gives a program's first project the program colour and its others shades of it", () => {
    const colours = budgetColours(["llm/a", "llm/b", "llm/a/x", "vision/v"]);
    expect(colours[0]).toBe(PROGRAM_COLOURS[0]);
    expect(colours[2]).toBe(PROGRAM_COLOURS[0]);
    expect(colours[1]).not.toBe(colours[0]);
    expect(colours[3]).toBe(PROGRAM_COLOURS[1]);
  });

  it("keeps budgets directly under the root (edge: no project part) distinct past nine programs", () => {
    const paths = Array.from({ length: 15 }, (_, i) => `vc${i}`);
    expect(new Set(budgetColours(paths)).size).toBe(15);
  });

  it("keys each program once, in order of first appearance, by its first budget's colour", () => {
    const paths = ["vision/v", "llm/b", "llm/a", "vision/w/x"];
    const colours = budgetColours(paths);
    expect(programKey(paths, colours)).toEqual([
      { program: "vision", colour: PROGRAM_COLOURS[0] },
      { program: "llm", colour: colours[1] },
    ]);
    expect(colours[1]).toBe(PROGRAM_COLOURS[1]);
  });
});
