// Bundles the simulation worker (lib/simulations/worker/sim-worker.ts) and its cluster thread
// (lib/simulations/threads/sim-thread.ts) into two ES modules with esbuild, our TypeScript only (packages stay
// imports). Node loads a bundle in about 0.4 s and a thread in 0.2 s, against 1.1-1.5 s and
// 0.9 s through tsx, which resolves and transforms a few hundred files on each start. Built by
// scripts/serve.ts when it serves a production build, so the bundle is always of the sources
// being served; `npm run dev` keeps tsx. docs/decisions/050.
import path from "node:path";
import { bundleEntries } from "../bin/bundle.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Where serve.ts puts the bundles: inside the app, so that packages resolve from its node_modules. */
export const WORKER_BUNDLE_DIR = path.join(ROOT, ".next", "sim-worker");

/**
 * Builds `sim-worker.mjs` and `sim-thread.mjs` into `outDir`; the worker's threads run the
 * thread bundle (lib/simulations/threads/cluster-threads.ts reads its path, set here at build time).
 *
 * @example const { workerPath } = await buildWorkerBundle(); spawn(process.execPath, [workerPath, id])
 */
export async function buildWorkerBundle(
  outDir: string = WORKER_BUNDLE_DIR,
): Promise<{ workerPath: string; threadPath: string }> {
  const workerPath = path.join(outDir, "sim-worker.mjs");
  const threadPath = path.join(outDir, "sim-thread.mjs");
  await bundleEntries({
    entryPoints: {
      "sim-worker": path.join(ROOT, "lib", "simulations", "worker", "sim-worker.ts"),
      "sim-thread": path.join(ROOT, "lib", "simulations", "threads", "sim-thread.ts"),
    },
    outDir,
    define: {
      "process.env.ALLOT_SIM_THREAD_BUNDLE": JSON.stringify(threadPath),
      // The worker's own file, whose bytes key its scenario cache (lib/simulations/worker/sim-worker.ts).
      "process.env.ALLOT_SIM_WORKER_FILE": JSON.stringify(workerPath),
      // The app's root, which the worker's sources find from their own folder (load-scenario.ts).
      "process.env.ALLOT_SIM_APP_ROOT": JSON.stringify(ROOT),
    },
  });
  return { workerPath, threadPath };
}
