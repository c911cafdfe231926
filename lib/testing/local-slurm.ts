// The project's local SLURM (scripts/slurm/local.sh): where its env file is and whether the
// cluster answers. Used by `npm test` (to decide whether to run test:slurm) and by the slurm
// test project (which fails, not skips, when the cluster is down).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

/** $ALLOT_SLURM_ENV, else env.sh in $ALLOT_SLURM_DIR (default /tmp/allot-slurm). */
export function localSlurmEnvFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.ALLOT_SLURM_ENV ?? path.join(env.ALLOT_SLURM_DIR ?? "/tmp/allot-slurm", "env.sh");
}

/** The variables the env file exports (SLURM_CONF...), or null when there is no env file. */
export function readLocalSlurmEnv(file = localSlurmEnvFile()): Record<string, string> | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const vars: Record<string, string> = {};
  for (const match of text.matchAll(/^export ([A-Z_][A-Z0-9_]*)=(.*)$/gm)) {
    vars[match[1]!] = match[2]!.trim();
  }
  return vars;
}

/** True when `scontrol ping` with `vars` (from the env file) says slurmctld is UP. */
export function isLocalSlurmUp(vars: Record<string, string>): boolean {
  const result = spawnSync("scontrol", ["ping"], {
    env: { ...process.env, ...vars },
    encoding: "utf8",
    timeout: 10_000,
  });
  return result.status === 0 && /\bUP\b/.test(result.stdout);
}
