import { afterEach, describe, expect, it } from "vitest";
import { freeEphemeralPort } from "../testing/free-port";
import { captureIo, runMain } from "./test-helpers";
import { ServerUnreachableError } from "./api-errors";
import { runBridgeCommand } from "./bridge-command";
import type { SlurmRunner } from "../slurm/slurm-cli";

const slurmUp: SlurmRunner = async () => "Slurmctld(primary) at localhost is UP\n";
const savedPath = process.env.PATH;
const savedToken = process.env.ALLOT_TOKEN;
afterEach(() => {
  process.env.PATH = savedPath;
  process.env.ALLOT_TOKEN = savedToken;
});

describe("allot slurm bridge at start", () => {
  it("exits 1 with a clear message when SLURM's commands are missing", async () => {
    process.env.PATH = "/nonexistent";
    process.env.ALLOT_TOKEN = "allot_c_test";
    const result = await runMain(["slurm", "bridge", "--cluster", "c", "--server", "http://x"]);
    expect(result).toMatchObject({
      code: 1,
      stderr: "allot: cannot reach SLURM: scontrol ping not installed: spawn scontrol ENOENT\n",
    });
  });

  it("exits 1 with a clear message when SLURM's controller is down", async () => {
    const { io } = captureIo();
    const down: SlurmRunner = async () => "Slurmctld(primary) at localhost is DOWN\n";
    const args = ["--cluster", "c", "--server", "http://x"];
    await expect(runBridgeCommand(args, io, { ALLOT_TOKEN: "t" }, down)).rejects.toThrow(
      "SLURM's controller is not up: Slurmctld(primary) at localhost is DOWN",
    );
  });

  it("exits 3 with a clear message when Allot cannot be reached", async () => {
    const { io } = captureIo();
    const env = { ALLOT_TOKEN: "allot_c_test" };
    const server = `http://127.0.0.1:${await freeEphemeralPort()}`;
    const args = ["--cluster", "c", "--server", server];
    const failure = runBridgeCommand(args, io, env, slurmUp);
    await expect(failure).rejects.toThrow(ServerUnreachableError);
    await expect(failure).rejects.toThrow(`cannot reach Allot at ${server} (ECONNREFUSED)`);
  });

  it("exits 2 on an --interval below 1 s, before calling SLURM or Allot", async () => {
    process.env.PATH = "/nonexistent";
    process.env.ALLOT_TOKEN = "allot_c_test";
    const argv = ["slurm", "bridge", "--cluster", "c", "--server", "http://x", "--interval"];
    expect(await runMain([...argv, "0"])).toMatchObject({
      code: 2,
      stderr:
        "allot: slurm bridge: --interval 0 is below 1s: each round runs squeue and sinfo and asks Allot for the plan; use 1s or more\n",
    });
    // 1 s is allowed: it goes on to SLURM (missing here, so exit 1).
    expect(await runMain([...argv, "1s"])).toMatchObject({ code: 1 });
  });

  it("exits 2 on a --server that is not a URL, before calling SLURM", async () => {
    process.env.PATH = "/nonexistent";
    process.env.ALLOT_TOKEN = "allot_c_test";
    const bridge = ["slurm", "bridge", "--cluster", "c", "--server", "allot"];
    const register = [
      "slurm",
      "register",
      "--cluster",
      "c",
      "--gpu-type",
      "H100",
      "--server",
      "allot",
    ];
    for (const argv of [bridge, register]) {
      expect(await runMain(argv)).toEqual({
        code: 2,
        stdout: "",
        stderr: `allot: slurm ${argv[1]}: --server: "allot" is not a URL (e.g. https://allot.example.org)\n`,
      });
    }
  });

  it("needs a token and the cluster", async () => {
    delete process.env.ALLOT_TOKEN;
    const noToken = await runMain(["slurm", "bridge", "--cluster", "c", "--server", "http://x"]);
    expect(noToken).toMatchObject({
      code: 4,
      stderr: "allot: slurm bridge: set ALLOT_TOKEN to cluster c's executor token\n",
    });
    process.env.ALLOT_TOKEN = "allot_c_secret\u2026";
    const malformed = await runMain(["slurm", "bridge", "--cluster", "c", "--server", "http://x"]);
    expect(malformed.code).toBe(4);
    expect(malformed.stderr).toMatch(/^allot: slurm bridge: ALLOT_TOKEN is malformed: it holds/);
    expect(malformed.stderr).not.toContain("secret");
    delete process.env.ALLOT_TOKEN;
    const noCluster = await runMain(["slurm", "bridge", "--server", "http://x"]);
    expect(noCluster).toMatchObject({
      code: 2,
      stderr: "allot: slurm bridge: --cluster is required\n",
    });
  });
});

describe("allot slurm register", () => {
  it("exits 2 naming both flags when the default minimum runtime is above the maximum", async () => {
    // No SLURM on PATH: the flags are judged before sinfo is read.
    process.env.PATH = "/nonexistent";
    process.env.ALLOT_TOKEN = "allot_p_test";
    const result = await runMain([
      "slurm",
      "register",
      "--cluster",
      "c",
      "--server",
      "http://x",
      "--gpu-type",
      "H100",
      "--max-min-runtime",
      "1h",
      "--default-min-runtime",
      "2h",
    ]);
    expect(result).toMatchObject({
      code: 2,
      stderr:
        "allot: slurm register: --default-min-runtime 2h is above --max-min-runtime 1h: every sbatch without --time-min would be refused; lower the default or raise the maximum\n",
    });
  });
});
