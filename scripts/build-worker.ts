// Bundles the simulation worker (scripts/sim-worker.ts) and its cluster thread
// (lib/sim-threads/sim-thread.ts) into two ES modules with esbuild, our TypeScript only (packages stay
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
 * thread bundle (lib/sim-threads/cluster-threads.ts reads its path, set here at build time).
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
      "sim-worker": path.join(ROOT, "scripts", "sim-worker.ts"),
      "sim-thread": path.join(ROOT, "lib", "sim-threads", "sim-thread.ts"),
    },
    outDir,
    define: {
      "process.env.ALLOT_SIM_THREAD_BUNDLE": JSON.stringify(threadPath),
      // The worker's own file, whose bytes key its scenario cache (scripts/sim-worker.ts).
      "process.env.ALLOT_SIM_WORKER_FILE": JSON.stringify(workerPath),
    },
  });
  return { workerPath, threadPath };
}
