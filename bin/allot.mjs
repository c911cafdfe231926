#!/usr/bin/env node
// The `allot` npm bin: runs the command line (lib/cli) from an esbuild bundle, built on first use
// and again whenever a source changes (bin/bundle.mjs): Node runs it about 3x faster than through
// tsx. ADR 017. For the commands that replay a scenario, Node starts again with larger
// semi-spaces of its young generation unless given a size: V8 sets them only when a process
// starts, and a long replay spends a fifth of its time collecting young garbage at the default
// size (ADR 021).
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureBundle } from "./bundle.mjs";
import { restartArgs } from "./node-flags.mjs";

/** Signals passed on to the Node started again (a terminal's Ctrl-C reaches both anyway). */
const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Commands that replay a scenario; others (the long-running SLURM bridge) keep Node's defaults. */
const SIMULATING_COMMANDS = new Set(["simulate", "shares", "queue"]);

const restart = SIMULATING_COMMANDS.has(process.argv[2] ?? "")
  ? restartArgs(
      process.execArgv,
      process.env.NODE_OPTIONS,
      fileURLToPath(import.meta.url),
      process.argv.slice(2),
    )
  : null;
if (restart) {
  const child = spawn(process.execPath, restart, { stdio: "inherit" });
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  child.on("error", (error) => {
    process.stderr.write(`allot: could not start Node again: ${error.message}\n`);
    process.exit(1);
  });
  // Its exit code, or the signal that ended it, becomes this process's.
  child.on("exit", (code, signal) => {
    for (const name of FORWARDED_SIGNALS) process.off(name, forward);
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
} else {
  const { entryPath } = await ensureBundle("cli", "lib/cli/main.ts");
  const { main, createProcessIo } = await import(pathToFileURL(entryPath).href);
  process.exitCode = await main(process.argv.slice(2), createProcessIo());
}
