// Starts scripts/sim-worker.ts as a child process so a simulation never runs on the request path.
// The worker needs a file that exists at runtime, so it is run from the app's root with tsx
// rather than bundled into the Next build.
import "server-only";
import { spawn } from "node:child_process";
import path from "node:path";

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
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "scripts", "sim-worker.ts"), simulationId],
    { cwd: root, env: process.env, stdio: ["ignore", "inherit", "inherit"] },
  );
  child.on("error", (error) => console.error(`sim-worker did not start: ${error.message}`));
  child.unref();
}
