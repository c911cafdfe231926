import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSlurmRunner, findSlurmConfProblem } from "./slurm-cli";

const FIX = "point it at slurm.conf, or unset it for SLURM's default";

describe("findSlurmConfProblem", () => {
  const folder = mkdtempSync(join(tmpdir(), "allot-slurm-conf-"));
  const conf = join(folder, "slurm.conf");
  writeFileSync(conf, "ClusterName=test\n");

  it("finds none when SLURM_CONF is unset (SLURM's default) or names a readable file", () => {
    expect(findSlurmConfProblem({})).toBeNull();
    expect(findSlurmConfProblem({ SLURM_CONF: conf })).toBeNull();
  });

  it("names SLURM_CONF and why when the file is missing", () => {
    expect(findSlurmConfProblem({ SLURM_CONF: "/nonexistent" })).toBe(
      `SLURM_CONF=/nonexistent names no readable file (ENOENT): ${FIX}`,
    );
  });

  it("names a directory and an empty value as such", () => {
    expect(findSlurmConfProblem({ SLURM_CONF: folder })).toBe(
      `SLURM_CONF=${folder} is a directory: ${FIX}`,
    );
    expect(findSlurmConfProblem({ SLURM_CONF: "" })).toBe(`SLURM_CONF is set but empty: ${FIX}`);
  });
});

describe("createSlurmRunner", () => {
  const run = createSlurmRunner();

  it("says why a command failed when it told only its standard output, as scontrol ping does", async () => {
    const script = "echo 'Slurmctld(primary) at vm is DOWN'; echo '***'; exit 1";
    await expect(run("sh", ["-c", script])).rejects.toThrow(
      `sh -c ${script} failed: Slurmctld(primary) at vm is DOWN`,
    );
  });

  it("prefers the first line of the standard error when there is one", async () => {
    await expect(run("sh", ["-c", "echo out; echo 'no such job' >&2; exit 1"])).rejects.toThrow(
      /failed: no such job$/,
    );
  });

  it("says a command was stopped, not a line of its output, when the timeout killed it", async () => {
    const slow = createSlurmRunner({ timeoutMs: 200 });
    await expect(slow("sh", ["-c", "echo '{'; sleep 5"])).rejects.toThrow(
      "sh -c echo '{'; sleep 5 failed: stopped (SIGTERM) after 0.2 s or too much output",
    );
  });

  it("says a missing command is not installed", async () => {
    await expect(run("no-such-slurm-tool", [])).rejects.toThrow(
      /^no-such-slurm-tool  not installed: /,
    );
  });
});
