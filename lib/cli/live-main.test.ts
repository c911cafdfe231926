import { describe, expect, it } from "vitest";
import { freeEphemeralPort } from "../testing/free-port";
import { LIVE_CONFIG_FILE, runLive } from "./test-helpers";

describe("the live commands' exit codes", () => {
  it("print help for each, with the exit codes", async () => {
    for (const command of ["squeue", "sshare", "why", "submit", "cancel", "budgets", "nodes"]) {
      const help = await runLive([command, "--help"], {});
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: allot ${command}`));
      expect(help.stdout).toContain("3 server unreachable, 4 no token");
    }
    expect((await runLive(["--help"], {})).stdout).toContain(
      "squeue [--cluster C]          the ranked queue, reasons and start estimates (--me, --start)",
    );
  });

  it("2 for bad usage, before any request", async () => {
    expect(await runLive(["squeue", "--bogus"], {})).toEqual({
      code: 2,
      stdout: "",
      stderr: "allot: squeue: unknown option --bogus (see allot squeue --help)\n",
    });
    expect(await runLive(["sshare"], {})).toEqual({
      code: 2,
      stdout: "",
      stderr: `allot: no server: pass --server <url>, set ALLOT_SERVER, or put "server" in ${LIVE_CONFIG_FILE}\n`,
    });
    expect((await runLive(["cancel"], { ALLOT_SERVER: "http://a:1" })).stderr).toBe(
      "allot: cancel: missing <job> (see allot cancel --help)\n",
    );
    // The offline twins of squeue and sshare point to them.
    expect((await runLive(["queue"], {})).stderr).toBe(
      "allot: queue: missing <scenario> (a scenario file; a server's live queue is allot squeue)\n",
    );
  });

  it("4 without a token, 3 when nothing answers, each saying what to do", async () => {
    const server = `http://127.0.0.1:${await freeEphemeralPort()}`;
    expect(await runLive(["budgets"], { ALLOT_SERVER: server })).toEqual({
      code: 4,
      stdout: "",
      stderr: `allot: no token: make one on ${server}/tokens (API tokens) and set ALLOT_TOKEN or "token" in ${LIVE_CONFIG_FILE}\n`,
    });
    expect(
      await runLive(["why", "job1", "--server", server], { ALLOT_TOKEN: "allot_p_x" }),
    ).toEqual({
      code: 3,
      stdout: "",
      stderr: `allot: cannot reach the server at ${server} (connection refused; the URL is from --server). Is it up, and is the URL right? Set it with --server, ALLOT_SERVER or "server" in ${LIVE_CONFIG_FILE}\n`,
    });
    // A token with a line break inside: exit 4, and the secret is never printed.
    const broken = await runLive(["squeue", "--server", server], {
      ALLOT_TOKEN: "allot_p_secretpart\nX",
    });
    expect(broken).toEqual({
      code: 4,
      stdout: "",
      stderr: `allot: the token from ALLOT_TOKEN is malformed: it holds a space, a line break or a character outside ASCII (a token is letters, digits, _ and -). To get a new one, make one on ${server}/tokens (API tokens) and set ALLOT_TOKEN or "token" in ${LIVE_CONFIG_FILE}\n`,
    });
    expect(broken.stderr).not.toContain("secretpart");
  });
});
