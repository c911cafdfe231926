import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { generateLabScenario } from "../sim";
import { SEMI_SPACE_FLAG } from "../../bin/node-flags.mjs";
import { runMain, simulateBothArgs } from "./test-helpers";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const BIN = path.join(ROOT, "bin", "allot.mjs");
const DIR = mkdtempSync(path.join(tmpdir(), "allot-bin-"));
const file = (name: string) => path.join(DIR, name);

function runBin(argv: string[]) {
  const child = spawnSync(process.execPath, [BIN, ...argv], { encoding: "utf8", cwd: DIR });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe("the allot bin", () => {
  afterAll(() => rmSync(DIR, { recursive: true, force: true }));

  it("runs the command line from its bundle: the outputs of this process, threads included", async () => {
    const scenario = generateLabScenario({
      days: 2,
      seed: 5,
      clusters: [
        { name: "h100", gpuType: "H100", nodes: 10, gpusPerNode: 8 },
        { name: "b200", gpuType: "B200", nodes: 6, gpusPerNode: 8 },
      ],
    });
    writeFileSync(file("lab.json"), JSON.stringify(scenario));
    const args = (out: string, threads: number) =>
      simulateBothArgs(
        file("lab.json"),
        threads,
        file(`${out}.report.json`),
        file(`${out}.timeline.json`),
      );
    const here = await runMain(args("here", 1));
    expect(here.code).toBe(0);

    // Two threads, started from the bundle's own thread module.
    const bin = runBin(args("bin", 2));
    expect(bin.stderr).toBe("");
    expect(bin.code).toBe(0);
    expect(bin.stdout).toBe(here.stdout);
    for (const kind of ["report", "timeline"]) {
      expect(readFileSync(file(`bin.${kind}.json`), "utf8")).toBe(
        readFileSync(file(`here.${kind}.json`), "utf8"),
      );
    }

    // The bundle is kept: a second run builds nothing.
    const entry = path.join(ROOT, "node_modules", ".cache", "allot", "cli", "entry.mjs");
    const builtMs = statSync(entry).mtimeMs;
    const help = runBin(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: allot <command>/);
    expect(statSync(entry).mtimeMs).toBe(builtMs);
  });

  it("starts Node again once, with the simulations' young generation, unless one is given", () => {
    // Each process prints the flags it was started with.
    const preload = pathToFileURL(file("print-flags.mjs")).href;
    writeFileSync(file("print-flags.mjs"), "console.error(JSON.stringify(process.execArgv));\n");
    const run = (flags: string[]) => {
      const child = spawnSync(process.execPath, [...flags, "--import", preload, BIN, "--help"], {
        encoding: "utf8",
        cwd: DIR,
      });
      expect(child.status).toBe(0);
      expect(child.stdout).toMatch(/^Usage: allot <command>/);
      return child.stderr
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as string[]);
    };
    expect(SEMI_SPACE_FLAG).toBe("--max-semi-space-size=128");
    expect(run([])).toEqual([
      ["--import", preload],
      [SEMI_SPACE_FLAG, "--import", preload],
    ]);
    expect(run(["--max-semi-space-size=32"])).toEqual([
      ["--max-semi-space-size=32", "--import", preload],
    ]);
  });

  it("gives bad input a message and exit 1, not a stack trace", () => {
    const missing = runBin(["simulate", file("nothing-here.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^allot: .*nothing-here\.json: cannot read/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});
