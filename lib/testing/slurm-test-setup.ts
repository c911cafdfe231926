// Per-file setup for SLURM tests: SLURM's tools read SLURM_CONF from the environment.
import { inject } from "vitest";

Object.assign(process.env, inject("slurmEnv"));
