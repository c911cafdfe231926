import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CliIo } from "./io";
import { main } from "./main";

const SCENARIO_PATH = "lib/sim/testdata/debug-vs-hog.json";

async function run(argv: string[], files: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const written: Record<string, string> = {};
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    isStderrTty: false,
    readText(path) {
      const text = files[path] ?? (path === SCENARIO_PATH ? readFileSync(path, "utf8") : undefined);
      if (text === undefined) throw Object.assign(new Error("missing"), { code: "ENOENT" });
      return text;
    },
    writeText: (path, text) => {
      written[path] = text;
    },
  };
  const code = await main(argv, io);
  return { code, stdout: out.join(""), stderr: err.join(""), written };
}

describe("allot command line", () => {
  it("prints its version", async () => {
    const version = JSON.parse(readFileSync("package.json", "utf8")).version;
    for (const flag of ["--version", "-V"]) {
      expect(await run([flag])).toMatchObject({ code: 0, stdout: `allot ${version}\n` });
    }
  });

  it("prints help for the tool and each command", async () => {
    expect(await run(["--help"])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Live commands"),
    });
    for (const command of ["simulate", "shares", "queue", "generate", "import-trace"]) {
      const result = await run([command, "--help"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: allot ${command}`);
    }
  });

  it("answers `allot help <command>` with that command's help", async () => {
    const viaHelp = await run(["help", "simulate"]);
    expect(viaHelp).toEqual(await run(["simulate", "--help"]));
    expect(viaHelp.stdout).toMatch(/^Usage: allot simulate/);
    expect(await run(["help", "frobnicate"])).toMatchObject({
      code: 2,
      stderr: 'allot: unknown command "frobnicate" (see allot --help)\n',
    });
  });

  it("answers bad usage with one line and exit code 2", async () => {
    expect(await run(["frobnicate"])).toMatchObject({
      code: 2,
      stderr: 'allot: unknown command "frobnicate" (see allot --help)\n',
    });
    expect((await run(["simulate", SCENARIO_PATH, "--bogus"])).stderr).toBe(
      "allot: simulate: unknown option --bogus (see allot simulate --help)\n",
    );
    expect(await run(["simulate", SCENARIO_PATH, "--scheduler", "fifo"])).toMatchObject({
      code: 2,
    });
    expect((await run(["shares", SCENARIO_PATH, "--at", "soon"])).stderr).toBe(
      'allot: shares: --at "soon" is not a duration (e.g. 90s, 15m, 8h, 7d, 1h30m, 1:30:00)\n',
    );
    // A moment past the scenario's horizon was never simulated.
    const cut = {
      "cut.json": JSON.stringify({
        ...JSON.parse(readFileSync(SCENARIO_PATH, "utf8")),
        horizon: "2h",
      }),
    };
    expect(await run(["queue", "cut.json", "--at", "3h", "--cluster", "h100"], cut)).toMatchObject({
      code: 2,
      stderr: "allot: queue: --at 3h is past the scenario's end (its horizon is 2h)\n",
    });
    expect((await run(["shares", "cut.json", "--at", "3h"], cut)).code).toBe(2);
    expect((await run(["shares", "cut.json", "--at", "2h"], cut)).code).toBe(0);
    // A negative value is the flag's value, answered by the flag's own check.
    expect(
      (await run(["generate", "--profile", "lab", "--days", "-3", "--seed", "1"])).stderr,
    ).toBe('allot: generate: --days must be a whole number from 1 to 366, got "-3"\n');
    expect((await run(["simulate", SCENARIO_PATH, "--horizon", "-1d"])).stderr).toBe(
      'allot: simulate: --horizon "-1d" is not a duration (e.g. 90s, 15m, 8h, 7d, 1h30m, 1:30:00)\n',
    );
    expect((await run(["simulate", SCENARIO_PATH, "--horizon", "-h"])).stderr).toBe(
      "allot: simulate: option --horizon needs a value (see allot simulate --help)\n",
    );
    expect(await run(["simulate", SCENARIO_PATH, "--horizon", "0"])).toMatchObject({
      code: 2,
      stdout: "",
      stderr: "allot: simulate: --horizon 0 simulates nothing: give a moment above 0, e.g. 30d\n",
    });
    expect(await run(["simulate", SCENARIO_PATH, "--horizon", "99999999999d"])).toMatchObject({
      code: 2,
      stderr: 'allot: simulate: --horizon "99999999999d" is longer than five years (1830d)\n',
    });
    expect((await run(["queue", SCENARIO_PATH, "--at", "1h"])).stderr).toBe(
      "allot: queue: --cluster is required\n",
    );
    expect((await run(["generate", "--profile", "lab", "--days", "0", "--seed", "1"])).code).toBe(
      2,
    );
    expect((await run(["import-trace", "philly", "x.csv", "--gpus", "12"])).code).toBe(2);
  });

  it("lists every problem of a bad scenario with exit code 1", async () => {
    const bad = JSON.stringify({
      clusters: [{ name: "c", gpuType: "H100", nodes: 1 }],
      tree: { name: "r", children: [{ name: "a" }] },
      jobs: [
        { id: "1", budget: "a", cluster: "c", submit: 0, gpus: 9, work: "1h", minRuntime: "9h" },
      ],
    });
    const result = await run(["simulate", "bad.json"], { "bad.json": bad });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "allot: bad.json: 2 problems\n  jobs[0].gpus: 9 is above the cluster total 8\n  jobs[0].minRuntime: 9h is above the cluster maximum 8h\n",
    );
    expect((await run(["simulate", "nope.json"])).stderr).toBe(
      "allot: nope.json: cannot read (no such file)\n",
    );
    expect((await run(["simulate", "x.json"], { "x.json": "{" })).stderr).toMatch(
      /^allot: x.json: not valid JSON/,
    );
  });

  it("simulates both schedulers and writes the report and timeline", async () => {
    const result = await run([
      "simulate",
      SCENARIO_PATH,
      "--scheduler",
      "both",
      "--out",
      "r.json",
      "--timeline",
      "t.json",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^scheduler\s+utilisation/);
    // What the figures cover: without a horizon each scheduler runs until its last job ends.
    expect(result.stdout).toContain(
      "period: baseline 13h 00m, allocation 14h 00m simulated; the scenario's 4 jobs were submitted in its first 11h 30m.",
    );
    const report = JSON.parse(result.written["r.json"] ?? "{}");
    expect(Object.keys(report)).toEqual(["baseline", "allocation"]);
    const timeline = JSON.parse(result.written["t.json"] ?? "{}");
    expect(timeline.allocation.segments[0]).toMatchObject({
      cluster: "h100",
      node: 0,
      gpus: [0, 1, 2, 3, 4, 5, 6, 7],
      jobId: "hog",
    });
  });

  it("refuses an output that would overwrite the scenario, the trace or the other output", async () => {
    const overScenario = await run(["simulate", SCENARIO_PATH, "--out", `./${SCENARIO_PATH}`]);
    expect(overScenario).toMatchObject({
      code: 2,
      stderr: `allot: simulate: --out ./${SCENARIO_PATH} would overwrite the scenario ${SCENARIO_PATH}\n`,
      written: {},
    });
    expect(
      await run(["simulate", SCENARIO_PATH, "--out", "r.json", "--timeline", "r.json"]),
    ).toMatchObject({
      code: 2,
      stderr: "allot: simulate: --timeline r.json would overwrite --out's file\n",
      written: {},
    });
    expect(
      (await run(["import-trace", "philly", "t.csv", "--gpus", "8", "--out", "t.csv"])).stderr,
    ).toBe("allot: import-trace: --out t.csv would overwrite the trace t.csv\n");
  });

  it("says a one-job scenario's job 'was' submitted, not 'were'", async () => {
    const scenario = JSON.parse(readFileSync(SCENARIO_PATH, "utf8"));
    const oneJob = { "one.json": JSON.stringify({ ...scenario, jobs: scenario.jobs.slice(1, 2) }) };
    const result = await run(["simulate", "one.json", "--scheduler", "allocation"], oneJob);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "period: 13h 00m simulated; the scenario's 1 job was submitted in its first 2h 00m.",
    );
  });

  it("shows shares like sshare, as a table and as JSON", async () => {
    const table = await run(["shares", SCENARIO_PATH, "--at", "150m"]);
    expect(table.stdout).toContain("Cluster h100 (16 GPUs) at day 1, 02:30");
    const json = JSON.parse(
      (await run(["shares", SCENARIO_PATH, "--at", "150m", "--json"])).stdout,
    );
    expect(json.cluster).toBe("h100");
    expect(json.atSec).toBe(9000);
    const debugging = json.nodes.find((node: { path: string }) => node.path === "vision/debugging");
    expect(debugging).toMatchObject({
      isLeaf: true,
      weight: 1,
      fraction: 1,
      effectiveShare: 0.5,
      usageGpuSeconds: 600,
      rank: 1,
      fairShareFactor: 1,
    });
    const pretrain = json.nodes.find((node: { path: string }) => node.path === "llm/pretrain");
    expect(pretrain).toMatchObject({
      usageGpuSeconds: 16 * 7200 + 16 * 1200,
      rank: 2,
      fairShareFactor: 0.5,
    });
    expect(json.nodes[0]).toMatchObject({ path: "", levelFairShare: null, rank: null });
    // Listed as Fair Tree visits them (the file has llm first): ranks read down the page.
    expect(json.nodes.map((node: { path: string }) => node.path)).toEqual([
      "",
      "vision",
      "vision/debugging",
      "llm",
      "llm/pretrain",
    ]);
  });

  it("lists the queue with reasons", async () => {
    const result = await run(["queue", SCENARIO_PATH, "--at", "2h", "--cluster", "h100"]);
    expect(result.stdout).toContain("Cluster h100 at day 1, 02:00: 1 running, 1 pending");
    expect(result.stdout).toMatch(/debug-1\s+R\s+vision\/debugging/);
    expect(result.stdout).toMatch(/hog\s+PD\s+llm\/pretrain/);
    const json = JSON.parse(
      (await run(["queue", SCENARIO_PATH, "--at", "2h", "--cluster", "h100", "--json"])).stdout,
    );
    expect(json.jobs.map((job: { id: string; state: string }) => `${job.id}:${job.state}`)).toEqual(
      ["debug-1:running", "hog:pending"],
    );
    // A running job is explained by its start.
    expect(json.jobs[0].reason).toMatchObject({ rule: "start-allocated" });
    expect(json.jobs[0].explanation).toMatch(
      /^Started at day 1, 02:00 on node 0 .*after preempting 1 run: vision \(at \d+% of its weekly share\) ranks above llm \(at \d+%\), where the two budgets' branches part, so vision\/debugging/,
    );
    // Unallocated work was never protected: its row says so once, not "No longer protected".
    const free = await run(["queue", SCENARIO_PATH, "--at", "11h", "--cluster", "h100"]);
    const scavenger = free.stdout.split("\n").find((line) => line.startsWith("scavenger"))!;
    expect(scavenger).toContain("never protected");
    expect(scavenger).not.toMatch(/[Pp]rotected for .* more|No longer protected/);
    // Then the tree as Fair Tree walks it: leaf ranks read down, each under its branch.
    expect(result.stdout).toContain("Budgets as Fair Tree ranks them");
    expect(json.tree.map((node: { path: string }) => node.path)).toEqual([
      "vision",
      "vision/debugging",
      "llm",
      "llm/pretrain",
    ]);
    const ranks = json.tree.flatMap((node: { rank: number | null }) => node.rank ?? []);
    expect(ranks).toEqual([...ranks].sort((a: number, b: number) => a - b));
  });

  it("prints usage of share as a ratio, as shares does: 0.024, not 2.4%; '-' when owed nothing", async () => {
    const result = await run(["queue", SCENARIO_PATH, "--at", "2h", "--cluster", "h100"]);
    expect(result.stdout).toMatch(/^llm\s+1\s+0\.024\s+0\.5000\s*$/m);
    expect(result.stdout).toMatch(/^ {2}pretrain\s+1\s+0\.024\s+1\.000\s+2$/m);
    const shares = await run(["shares", SCENARIO_PATH, "--at", "2h", "--cluster", "h100"]);
    expect(shares.stdout).toMatch(/^ {2}llm\s+1\s+0\.5000\s+50\.0%\s+32\.0\s+0\.024\s/m);
    // A budget of weight 0 has no share to measure usage against.
    const scenario = JSON.parse(readFileSync(SCENARIO_PATH, "utf8"));
    scenario.tree.children[1].weight = 0;
    const files = { "zero.json": JSON.stringify(scenario) };
    const zero = await run(["queue", "zero.json", "--at", "2h", "--cluster", "h100"], files);
    expect(zero.stdout).toMatch(/^vision\s+0\s+-\s+0\.000\s*$/m);
  });

  it("generates a lab scenario and imports a Philly CSV", async () => {
    const lab = await run([
      "generate",
      "--profile",
      "lab",
      "--days",
      "1",
      "--seed",
      "3",
      "--out",
      "lab.json",
    ]);
    expect(lab.code).toBe(0);
    expect(JSON.parse(lab.written["lab.json"] ?? "{}").clusters).toHaveLength(3);
    const csv = "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1,66.0,a\n";
    const philly = await run(["import-trace", "philly", "p.csv", "--gpus", "16"], { "p.csv": csv });
    expect(philly.code).toBe(0);
    expect(JSON.parse(philly.stdout).jobs).toHaveLength(1);
    const oneBad = await run(["import-trace", "philly", "b.csv", "--gpus", "16"], {
      "b.csv": `${csv}2017-10-09 07:02:00,x,1,66.0,a\n`,
    });
    expect(oneBad.code).toBe(1);
    expect(oneBad.stderr).toMatch(/^allot: b\.csv: 1 bad line\n {2}line 3: /);
    // Weights name the trace's virtual clusters; a misspelt one would leave every budget at 0.
    const weighed = (weights: string) =>
      run(["import-trace", "philly", "p.csv", "--gpus", "16", "--weights", weights], {
        "p.csv": csv,
      });
    expect(JSON.parse((await weighed("a=3")).stdout).tree.children[0].weight).toBe(3);
    expect(await weighed("nosuch=3")).toMatchObject({
      code: 2,
      stdout: "",
      stderr:
        'allot: import-trace: --weights names "nosuch", not a virtual cluster of the trace (it has 1: a)\n',
    });
    expect(await weighed("a=3,a=1")).toMatchObject({
      code: 2,
      stdout: "",
      stderr: 'allot: import-trace: --weights gives "a" twice\n',
    });
    expect((await weighed("a=")).stderr).toBe(
      'allot: import-trace: --weights "a=" is not name=weight (a non-negative number)\n',
    );
    // A weight under 0.000001 would read 0.00% everywhere; 0 itself is a weight.
    expect((await weighed("a=1e-320")).stderr).toBe(
      'allot: import-trace: --weights "a=1e-320": a weight is 0 or at least 0.000001\n',
    );
    expect(JSON.parse((await weighed("a=0")).stdout).tree.children[0].weight).toBe(0);
  });
});
