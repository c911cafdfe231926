import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { generateLabScenario } from "../demo/lab-workload";
import { runMain as run, simulateBothArgs } from "./test-helpers";

const DIR = mkdtempSync(path.join(tmpdir(), "allot-simulate-"));

const file = (name: string) => path.join(DIR, name);

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe("allot simulate --threads", () => {
  it("writes the same report, timeline and summary on 1 and 2 threads, with progress on a terminal", async () => {
    // The lab profile on a smaller fleet, so that both schedulers take a second or two.
    const scenario = generateLabScenario({
      days: 2,
      seed: 3,
      clusters: [
        { name: "h100", gpuType: "H100", nodes: 12, gpusPerNode: 8 },
        { name: "b200", gpuType: "B200", nodes: 8, gpusPerNode: 8 },
        { name: "b300", gpuType: "B300", nodes: 4, gpusPerNode: 8 },
      ],
    });
    writeFileSync(file("lab.json"), JSON.stringify(scenario));
    const simulate = (threads: number, isTty: boolean) =>
      run(
        simulateBothArgs(
          file("lab.json"),
          threads,
          file(`report-${threads}.json`),
          file(`timeline-${threads}.json`),
        ),
        isTty,
      );
    const inThisThread = await simulate(1, false);
    const onThreads = await simulate(2, true);
    expect(inThisThread).toMatchObject({ code: 0, stderr: "" });
    expect(onThreads.code).toBe(0);
    expect(onThreads.stdout).toBe(inThisThread.stdout);
    expect(readFileSync(file("report-2.json"))).toEqual(readFileSync(file("report-1.json")));
    expect(readFileSync(file("timeline-2.json"))).toEqual(readFileSync(file("timeline-1.json")));
    const report = JSON.parse(readFileSync(file("report-2.json"), "utf8"));
    expect(Object.keys(report)).toEqual(["baseline", "allocation"]);
    expect(report.allocation.jobs).toHaveLength(scenario.jobs.length);
    // Progress is overwritten in place, reaches every replay's end, and is cleared at the end.
    expect(onThreads.stderr).toContain("\rbaseline 100% · allocation 100%\u001b[K");
    expect(onThreads.stderr.endsWith("\r\u001b[K")).toBe(true);
  }, 30_000);

  it("bundled on its own, with no thread code beside it, says so and simulates in one thread", async () => {
    const bundle = file("cli.mjs");
    await build({
      entryPoints: ["lib/cli/main.ts"],
      outfile: bundle,
      bundle: true,
      platform: "node",
      format: "esm",
      logLevel: "warning",
    });
    writeFileSync(file("tiny.json"), readFileSync("lib/sim/testdata/debug-vs-hog.json"));
    const argv = ["simulate", file("tiny.json"), "--scheduler", "both", "--out"];
    const bundled = spawnSync(
      process.execPath,
      [bundle, ...argv, file("tiny-bundled.json"), "--threads", "2"],
      { encoding: "utf8" },
    );
    const here = await run([...argv, file("tiny-here.json"), "--threads", "1"]);
    expect(bundled.stderr).toBe(
      "allot: simulate: no worker thread code beside this bundle; simulating in one thread\n",
    );
    expect(bundled.status).toBe(0);
    expect(bundled.stdout).toBe(here.stdout);
    expect(readFileSync(file("tiny-bundled.json"))).toEqual(readFileSync(file("tiny-here.json")));
  }, 30_000);

  it("refuses a thread count that is not a whole number from 1, and documents the flag", async () => {
    writeFileSync(file("tiny.json"), readFileSync("lib/sim/testdata/debug-vs-hog.json"));
    for (const value of ["0", "abc", "1.5", "-2", "257"]) {
      expect(await run(["simulate", file("tiny.json"), `--threads=${value}`])).toEqual({
        code: 2,
        stdout: "",
        stderr: `allot: simulate: --threads must be a whole number from 1 to 256, got "${value}"\n`,
      });
    }
    expect((await run(["simulate", file("tiny.json"), "--threads"])).stderr).toBe(
      "allot: simulate: option --threads needs a value (see allot simulate --help)\n",
    );
    expect((await run(["simulate", "--help"])).stdout).toMatch(
      /--threads <n> +simulate on n worker threads, one task per scheduler and cluster/,
    );
  });
});

describe("allot simulate --scheduler", () => {
  it("takes a list of policies, reference among them, and writes one report per name", async () => {
    writeFileSync(file("list.json"), readFileSync("lib/sim/testdata/debug-vs-hog.json"));
    const out = file("list-report.json");
    const result = await run([
      "simulate",
      file("list.json"),
      "--scheduler",
      "baseline,reference,allocation",
      "--out",
      out,
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(out, "utf8"));
    expect(Object.keys(report)).toEqual(["baseline", "reference", "allocation"]);
    // The reference pass decides what the fast pass decides.
    expect({ ...report.reference, scheduler: "allocation" }).toEqual(report.allocation);
    expect(result.stdout).toMatch(/^reference\s/m);
  });

  it("refuses an unknown or repeated name, saying which names it takes", async () => {
    writeFileSync(file("list.json"), readFileSync("lib/sim/testdata/debug-vs-hog.json"));
    for (const value of ["fifo", "baseline,fifo", "allocation,allocation", ""]) {
      expect(await run(["simulate", file("list.json"), "--scheduler", value])).toEqual({
        code: 2,
        stdout: "",
        stderr: `allot: simulate: --scheduler must be allocation, baseline, reference, both, or a list of them without repeats, got "${value}"\n`,
      });
    }
  });
});

describe("allot simulate, generate and import-trace --out", () => {
  it("refuse a path that cannot be written before doing the work, and leave no file", async () => {
    writeFileSync(file("one-job.json"), readFileSync("lib/sim/testdata/debug-vs-hog.json"));
    const missingFolder = file("no-such-folder/report.json");
    const simulate = await run(["simulate", file("one-job.json"), "--out", missingFolder]);
    expect(simulate).toEqual({
      code: 1,
      stdout: "",
      stderr: `allot: ${missingFolder}: cannot write (ENOENT)\n`,
    });
    // A good --out beside a bad --timeline: checked first, so the report is not written either.
    const timeline = await run([
      "simulate",
      file("one-job.json"),
      "--out",
      file("report-x.json"),
      "--timeline",
      DIR,
    ]);
    expect(timeline).toMatchObject({ code: 1, stdout: "" });
    expect(timeline.stderr).toBe(`allot: ${DIR}: cannot write (EISDIR)\n`);
    expect(existsSync(file("report-x.json"))).toBe(false);
    const generate = await run([
      "generate",
      "--profile",
      "lab",
      "--days",
      "1",
      "--seed",
      "1",
      "--out",
      missingFolder,
    ]);
    expect(generate).toMatchObject({ code: 1, stdout: "" });
    for (const [bad, code] of [
      [`${DIR}/new-folder/`, "EISDIR"],
      [`${file("one-job.json")}/report.json`, "ENOTDIR"],
    ] as const) {
      const refused = await run(["simulate", file("one-job.json"), "--out", bad]);
      expect(refused).toEqual({
        code: 1,
        stdout: "",
        stderr: `allot: ${bad}: cannot write (${code})\n`,
      });
    }
    expect(existsSync(path.dirname(missingFolder))).toBe(false);
  });
});
