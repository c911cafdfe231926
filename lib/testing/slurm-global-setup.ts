// Vitest global setup for SLURM tests (*.slurm.test.ts): the project's local SLURM must be up
// (npm run slurm:up). When it is not, the run fails here, with what to do: these tests never
// skip. Hands its env file's variables (SLURM_CONF...) to the test files.
import type { TestProject } from "vitest/node";
import { isLocalSlurmUp, localSlurmEnvFile, readLocalSlurmEnv } from "./local-slurm";

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  export interface ProvidedContext {
    /** The local SLURM's env file variables: SLURM_CONF, SLURM_REST_URL, ALLOT_SLURM_CLUSTER. */
    slurmEnv: Record<string, string>;
  }
}

export default function setup(project: TestProject) {
  const file = localSlurmEnvFile();
  const vars = readLocalSlurmEnv(file);
  if (!vars?.SLURM_CONF) {
    throw new Error(`No local SLURM: ${file} is missing. Start one with npm run slurm:up.`);
  }
  if (!isLocalSlurmUp(vars)) {
    throw new Error(
      `The local SLURM of ${file} does not answer scontrol ping: npm run slurm:up (or slurm:status).`,
    );
  }
  project.provide("slurmEnv", vars);
}
