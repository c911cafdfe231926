#!/usr/bin/env node
// The `allot` npm bin: runs the command line (lib/cli) from an esbuild bundle, built on first use
// and again whenever a source changes (bin/bundle.mjs): Node runs it about 3x faster than through
// tsx. ADR 017. Node starts again with a larger young generation unless one was given: V8 sets
// it only when a process starts, and simulations spend a fifth of their time collecting young
// garbage at the default size (ADR 021).
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureBundle } from "./bundle.mjs";
import { restartArgs } from "./node-flags.mjs";

const restart = restartArgs(
  process.execArgv,
  fileURLToPath(import.meta.url),
  process.argv.slice(2),
);
if (restart) {
  const child = spawnSync(process.execPath, restart, { stdio: "inherit" });
  if (child.error) {
    process.stderr.write(`allot: could not start Node again: ${child.error.message}\n`);
    process.exit(1);
  }
  if (child.signal) process.kill(process.pid, child.signal);
  process.exit(child.status ?? 1);
}

const { entryPath } = await ensureBundle("cli", "lib/cli/main.ts");
const { main, createProcessIo } = await import(pathToFileURL(entryPath).href);
process.exitCode = await main(process.argv.slice(2), createProcessIo());
