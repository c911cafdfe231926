import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { generateLabScenario } from "../demo/lab-workload";
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

  it("stops quietly when its reader closes the pipe early (| head)", () => {
    // A week of the lab is megabytes of JSON on stdout; head takes 100 bytes and closes the pipe.
    const child = spawnSync(
      "bash",
      [
        "-c",
        `"${process.execPath}" "${BIN}" generate --profile lab --days 7 --seed 2 | head -c 100 >/dev/null; echo "\${PIPESTATUS[0]}"`,
      ],
      { encoding: "utf8", cwd: DIR },
    );
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("0\n");
  }, 60_000);

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

  it("starts a replaying Node again once, with the simulations' semi-spaces, unless a size is given", () => {
    // Each process prints the flags it was started with.
    const preload = pathToFileURL(file("print-flags.mjs")).href;
    writeFileSync(file("print-flags.mjs"), "console.error(JSON.stringify(process.execArgv));\n");
    const run = (flags: string[], nodeOptions = "", command = ["simulate", "--help"]) => {
      const child = spawnSync(process.execPath, [...flags, "--import", preload, BIN, ...command], {
        encoding: "utf8",
        cwd: DIR,
        env: { ...process.env, NODE_OPTIONS: nodeOptions },
      });
      expect(child.status).toBe(0);
      expect(child.stdout).toMatch(/^Usage: allot /);
      return child.stderr
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as string[]);
    };
    expect(SEMI_SPACE_FLAG).toBe("--max-semi-space-size=64");
    expect(run([])).toEqual([
      ["--import", preload],
      [SEMI_SPACE_FLAG, "--import", preload],
    ]);
    expect(run(["--max-semi-space-size=32"])).toEqual([
      ["--max-semi-space-size=32", "--import", preload],
    ]);
    expect(run(["--max_semi_space_size=32"])).toEqual([
      ["--max_semi_space_size=32", "--import", preload],
    ]);
    expect(run([], "--max-semi-space-size=32")).toEqual([["--import", preload]]);
    // The long-running bridge, and anything that does not replay, keeps one Node at its defaults.
    expect(run([], "", ["slurm", "--help"])).toEqual([["--import", preload]]);
  }, 30_000);

  it("ends as the Node it started again ends, and passes a signal sent to it alone on", async () => {
    // In the Node started again only (it has the flag): exit 7, end by a signal, or stay up.
    const preload = (name: string, code: string) => {
      const isChild = `process.execArgv.includes(${JSON.stringify(SEMI_SPACE_FLAG)})`;
      writeFileSync(
        file(name),
        `import { writeFileSync } from "node:fs";\nif (${isChild}) { ${code} }\n`,
      );
      return pathToFileURL(file(name)).href;
    };
    const withPreload = (url: string) =>
      spawnSync(process.execPath, ["--import", url, BIN, "simulate", "--help"], {
        encoding: "utf8",
        cwd: DIR,
      });
    expect(withPreload(preload("exit-7.mjs", "process.exit(7);")).status).toBe(7);
    const killed = withPreload(preload("killed.mjs", 'process.kill(process.pid, "SIGTERM");'));
    expect(killed.signal).toBe("SIGTERM");

    // A signal to the first process alone ends the second too.
    const pidFile = file("child.pid");
    const stay = preload(
      "stay.mjs",
      `writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
    );
    const bin = spawn(process.execPath, ["--import", stay, BIN, "simulate", "--help"], {
      cwd: DIR,
    });
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      bin.once("exit", (_code, signal) => resolve(signal)),
    );
    while (!existsSync(pidFile)) await new Promise((resolve) => setTimeout(resolve, 20));
    const childPid = Number(readFileSync(pidFile, "utf8"));
    bin.kill("SIGTERM");
    expect(await ended).toBe("SIGTERM");
    const isAlive = (): boolean => {
      try {
        return process.kill(childPid, 0);
      } catch {
        return false;
      }
    };
    const wasLeftRunning = isAlive();
    if (wasLeftRunning) process.kill(childPid, "SIGKILL");
    expect(wasLeftRunning).toBe(false);
  }, 30_000);

  it("gives bad input a message and exit 1, not a stack trace", () => {
    const missing = runBin(["simulate", file("nothing-here.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^allot: .*nothing-here\.json: cannot read/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});
