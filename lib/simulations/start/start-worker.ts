// Starts lib/simulations/worker/sim-worker.ts as a child process so a simulation never runs on the request path.
// The worker needs a file that exists at runtime, not part of the Next build: the bundle that
// scripts/serve.ts builds of it when serving a production build (ALLOT_SIM_WORKER_BUNDLE), else
// the TypeScript source through tsx, from the app's root.
import "server-only";
import { spawn } from "node:child_process";
import path from "node:path";
import { getLogger } from "../../log/logger";

/** At most this many worker processes at once; the rest wait in the queue (2 cores here). */
export const MAX_RUNNING_WORKERS = 2;

function appRoot(): string {
  return process.env.ALLOT_ROOT ?? process.cwd();
}

/**
 * Spawns a worker for `simulationId` (it then claims the next queued ones). Detached from the
 * request: the response does not wait for it, and its output goes to the server's log.
 */
export function startSimulationWorker(simulationId: string): void {
  const root = appRoot();
  const bundle = process.env.ALLOT_SIM_WORKER_BUNDLE;
  const entry = bundle
    ? [bundle]
    : ["--import", "tsx", path.join(root, "lib", "simulations", "worker", "sim-worker.ts")];
  const child = spawn(process.execPath, [...entry, simulationId], {
    cwd: root,
    env: process.env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.on("error", (error) =>
    getLogger().error({ simulationId, err: error }, "sim-worker did not start"),
  );
  child.unref();
}
