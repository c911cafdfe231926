// Bundles TypeScript entry points of this repository with esbuild into ES modules that Node runs
// directly, our code only (packages stay imports), and keeps them in node_modules/.cache/allot
// until a source file they were built from changes. Used by the `allot` bin and the simulator's
// benchmark: Node runs the engine about 3x faster from such a bundle than through tsx, whose
// on-the-fly transform keeps every function's name by wrapping each closure as it is made
// (Philly's allocation replay: 8 s bundled, 17 s bundled with names kept, 25 s through tsx).
// Plain JavaScript, so that the bin needs no loader. ADR 017.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The thread of lib/simulations/threads, bundled beside every entry point that may start threads. */
const THREAD_ENTRY = path.join(ROOT, "lib", "simulations", "threads", "sim-thread.ts");

function hashOf(sources) {
  const hash = createHash("sha256");
  for (const [file, text] of sources) hash.update(`${file}\0${text}\0`);
  return hash.digest("hex");
}

/** This file, recorded among every bundle's sources: a bundle made otherwise is made again. */
const SELF = fileURLToPath(import.meta.url);

/** Whether the sources recorded for a bundle, this file among them, still read the same. */
async function isFresh(dir) {
  try {
    const record = JSON.parse(await readFile(path.join(dir, "sources.json"), "utf8"));
    if (!record.files.includes(SELF)) return false;
    const sources = [];
    for (const file of record.files) sources.push([file, await readFile(file, "utf8")]);
    return hashOf(sources) === record.hash;
  } catch {
    return false;
  }
}

async function writeAside(file, contents) {
  const aside = `${file}.${process.pid}.tmp`;
  await writeFile(aside, contents);
  await rename(aside, file);
}

/**
 * Bundles `entryPoints` ({ name: absolute path }) into `outDir` as `<name>.mjs`: our own modules
 * only, TypeScript and `.mjs` (packages stay imports), each TypeScript module keeping its own
 * `import.meta` (the source file's), as under tsx, so that paths such as the Philly trace's beside
 * the repository stay right. Files are written aside and renamed, so that a run meanwhile never
 * reads half a file. Returns the bytes of every source read, by path, sorted.
 *
 * @example await bundleEntries({ entryPoints: { cli: "/repo/lib/cli/main.ts" }, outDir, define: {} })
 */
export async function bundleEntries({ entryPoints, outDir, define }) {
  const { build } = await import("esbuild");
  const sources = [];
  const keepImportMeta = {
    name: "keep-import-meta",
    setup(builder) {
      const isOurs = (file) => !file.includes(`${path.sep}node_modules${path.sep}`);
      builder.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!isOurs(args.path)) return undefined;
        const source = await readFile(args.path, "utf8");
        sources.push([args.path, source]);
        return {
          loader: "ts",
          contents: source
            .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
            .replaceAll("import.meta.filename", JSON.stringify(args.path))
            .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
        };
      });
      // Our plain JavaScript modules (bin/node-flags.mjs, bin/bundle.mjs) and the JSON we
      // import (package.json, for `allot --version`) are recorded too, and left as they are:
      // bin/bundle.mjs, bundled into the benchmark, names `import.meta` in text.
      builder.onLoad({ filter: /\.(mjs|json)$/ }, async (args) => {
        if (!isOurs(args.path)) return undefined;
        const source = await readFile(args.path, "utf8");
        sources.push([args.path, source]);
        return { loader: args.path.endsWith(".json") ? "json" : "js", contents: source };
      });
    },
  };
  const { outputFiles } = await build({
    write: false,
    entryPoints,
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    plugins: [keepImportMeta],
    define,
    logLevel: "warning",
  });
  await mkdir(outDir, { recursive: true });
  for (const file of outputFiles) await writeAside(file.path, file.contents);
  return sources.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

async function build(dir, entryPoints, threadPath) {
  const sources = await bundleEntries({
    entryPoints,
    outDir: dir,
    define: { "process.env.ALLOT_SIM_THREAD_BUNDLE": JSON.stringify(threadPath) },
  });
  sources.push([SELF, await readFile(SELF, "utf8")]);
  const record = { files: sources.map(([file]) => file), hash: hashOf(sources) };
  await writeAside(path.join(dir, "sources.json"), JSON.stringify(record));
}

/**
 * The bundle of `entry` (a TypeScript file of this repository) and of the simulation thread it
 * may start, built when missing or when a source changed: `{ entryPath, threadPath }`. Kept in
 * node_modules/.cache/allot/<name>, or in the temporary directory when that is not writable.
 *
 * @example const { entryPath } = await ensureBundle("cli", "lib/cli/main.ts"); await import(pathToFileURL(entryPath).href)
 */
export async function ensureBundle(name, entry) {
  const cacheDirs = [
    path.join(ROOT, "node_modules", ".cache", "allot", name),
    path.join(
      tmpdir(),
      `allot-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}`,
      name,
    ),
  ];
  let lastError = null;
  for (const dir of cacheDirs) {
    const entryPath = path.join(dir, "entry.mjs");
    const threadPath = path.join(dir, "sim-thread.mjs");
    try {
      if (!(await isFresh(dir))) {
        await build(
          dir,
          { entry: path.resolve(ROOT, entry), "sim-thread": THREAD_ENTRY },
          threadPath,
        );
      }
      return { entryPath, threadPath };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
