import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { selectBenchFiles } from "./bench-files";

const benchDir = path.join(import.meta.dirname, "bench");

describe("selectBenchFiles", () => {
  it("runs the benchmarks of scripts/bench, not their tests nor their shared folder", () => {
    const files = readdirSync(benchDir);
    expect(files).toEqual(expect.arrayContaining(["lib", "tick.ts"]));
    const selected = selectBenchFiles(files, []);
    expect(selected).toEqual(expect.arrayContaining(["engine.ts", "philly-worker.ts", "sim.ts"]));
    expect(selected.filter((file) => file.endsWith(".test.ts"))).toEqual([]);
    expect(selected).not.toContain("lib");
    expect(selected).not.toContain("philly-browser.ts");
  });

  it("runs a benchmark run only when named when it is named, and what starts with a name", () => {
    const files = ["philly-browser.ts", "philly-stored.ts", "philly-worker.ts", "sim.ts"];
    expect(selectBenchFiles(files, ["philly-b"])).toEqual(["philly-browser.ts"]);
    expect(selectBenchFiles(files, ["philly"])).toEqual([
      "philly-browser.ts",
      "philly-stored.ts",
      "philly-worker.ts",
    ]);
  });

  it("never runs a test, even when its name is given", () => {
    const files = ["sim.db.test.ts", "sim.test.ts", "sim.ts"];
    expect(selectBenchFiles(files, ["sim"])).toEqual(["sim.ts"]);
  });
});
