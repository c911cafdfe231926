import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // Vitest has no react-server condition; the data layer's guard is a Next concern.
      "server-only": `${root}lib/testing/server-only-stub.ts`,
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.db.test.ts", "**/*.slurm.test.ts", "node_modules/**"],
          // The property tests take 1-3 s alone; with every worker busy on 2 cores, 5 s was
          // exceeded. A limit against hangs, not a speed check (benchmarks are in scripts/bench).
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "db",
          include: ["**/*.db.test.ts"],
          exclude: ["node_modules/**"],
          globalSetup: ["./lib/testing/db-global-setup.ts"],
          setupFiles: ["./lib/testing/db-test-setup.ts"],
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // A real SLURM (npm run slurm:up; fails when it is down), the production build and a
        // real Postgres.
        extends: true,
        test: {
          name: "slurm",
          include: ["**/*.slurm.test.ts"],
          exclude: ["node_modules/**"],
          globalSetup: ["./lib/testing/slurm-global-setup.ts", "./lib/testing/db-global-setup.ts"],
          setupFiles: ["./lib/testing/db-test-setup.ts", "./lib/testing/slurm-test-setup.ts"],
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
