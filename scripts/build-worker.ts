// Bundles the simulation worker (scripts/sim-worker.ts) and its cluster thread
// (lib/sim-threads/sim-thread.ts) into two ES modules with esbuild, our TypeScript only (packages stay
// imports). Node loads a bundle in about 0.4 s and a thread in 0.2 s, against 1.1-1.5 s and
// 0.9 s through tsx, which resolves and transforms a few hundred files on each start. Built by
// scripts/serve.ts when it serves a production build, so the bundle is always of the sources
// being served; `npm run dev` keeps tsx. docs/decisions/050.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Where serve.ts puts the bundles: inside the app, so that packages resolve from its node_modules. */
export const WORKER_BUNDLE_DIR = path.join(ROOT, ".next", "sim-worker");

/**
 * Each bundled module keeps its own `import.meta.url`, `dirname` and `filename` (the source
 * file's), as under tsx: paths such as the Philly trace's beside the repository stay right.
 */
const keepImportMeta: Plugin = {
  name: "keep-import-meta",
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, "utf8");
      return {
        loader: "ts",
        contents: source
          .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
          .replaceAll("import.meta.filename", JSON.stringify(args.path))
          .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
      };
    });
  },
};

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
  const { outputFiles } = await build({
    write: false,
    entryPoints: {
      "sim-worker": path.join(ROOT, "scripts", "sim-worker.ts"),
      "sim-thread": path.join(ROOT, "lib", "sim-threads", "sim-thread.ts"),
    },
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    plugins: [keepImportMeta],
    // The worker's own file, whose bytes key its scenario cache (scripts/sim-worker.ts).
    define: {
      "process.env.ALLOT_SIM_THREAD_BUNDLE": JSON.stringify(threadPath),
      "process.env.ALLOT_SIM_WORKER_FILE": JSON.stringify(workerPath),
    },
    logLevel: "warning",
  });
  // Written aside and renamed, so that a worker started meanwhile (another server on the same
  // checkout) never reads half a file.
  await mkdir(outDir, { recursive: true });
  for (const file of outputFiles) {
    const aside = `${file.path}.${process.pid}.tmp`;
    await writeFile(aside, file.contents);
    await rename(aside, file.path);
  }
  return { workerPath, threadPath };
}
