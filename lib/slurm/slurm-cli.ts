// SLURM's own commands (scontrol, squeue, sinfo, sacct, sacctmgr), run with execFile: no npm
// package speaks to SLURM and slurmrestd cannot place or requeue a job (docs/slurm.md), so the
// bridge and the sync shell out, as SLURM's own tools do. One seam, so tests can see the calls.
import { execFile } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";

/** A SLURM command that failed or could not be started. */
export class SlurmCommandError extends Error {
  constructor(
    message: string,
    readonly command: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/** Runs one SLURM command and resolves to its standard output. */
export type SlurmRunner = (command: string, args: readonly string[]) => Promise<string>;

/**
 * The environment SLURM's commands get: this process's (SLURM_CONF and all), with times as
 * epoch seconds (`squeue`'s StartTime), which no time zone, daylight-saving hour or site
 * `SLURM_TIME_FORMAT` can misread.
 */
function slurmEnv(): NodeJS.ProcessEnv {
  return { ...process.env, SLURM_TIME_FORMAT: "%s" };
}

/** The real runner: `command args...` with {@link slurmEnv}. */
export function createSlurmRunner(options: { timeoutMs?: number } = {}): SlurmRunner {
  return (command, args) =>
    new Promise((resolve, reject) => {
      execFile(
        command,
        [...args],
        { env: slurmEnv(), timeout: options.timeoutMs ?? 30_000, maxBuffer: 256 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const why = (error as { code?: unknown }).code === "ENOENT" ? "not installed" : "failed";
          // Killed (the timeout, too much output): what it printed so far is data, not a reason.
          const isKilled = Boolean(error.killed) || Boolean(error.signal);
          // Some say why on stdout only: `scontrol ping` prints "Slurmctld(primary) at ... is DOWN".
          const said = isKilled
            ? `stopped (${error.signal ?? "killed"}) after ${(options.timeoutMs ?? 30_000) / 1000} s or too much output`
            : stderr.trim() || stdout.trim() || error.message.trim();
          const line = said.split("\n")[0] ?? "";
          reject(
            new SlurmCommandError(
              `${command} ${args.join(" ")} ${why}: ${line}`,
              command,
              String(stderr),
            ),
          );
        },
      );
    });
}

/**
 * Why `SLURM_CONF` cannot be SLURM's configuration, or null when it is unset or names a
 * readable file. Given a missing file, SLURM's tools retry for about 30 s and then print their
 * own "retrying" noise, so the commands check it before calling them.
 */
export function findSlurmConfProblem(env: Record<string, string | undefined>): string | null {
  const path = env.SLURM_CONF;
  if (path === undefined) return null;
  const fix = "point it at slurm.conf, or unset it for SLURM's default";
  if (path.trim() === "") return `SLURM_CONF is set but empty: ${fix}`;
  try {
    if (statSync(path).isDirectory()) return `SLURM_CONF=${path} is a directory: ${fix}`;
    accessSync(path, constants.R_OK);
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    return `SLURM_CONF=${path} names no readable file (${code}): ${fix}`;
  }
}
