#!/usr/bin/env node
// The `allot` npm bin: runs the command line (lib/cli) from an esbuild bundle, built on first use
// and again whenever a source changes (bin/bundle.mjs): Node runs it about 3x faster than through
// tsx. ADR 017.
import { pathToFileURL } from "node:url";
import { ensureBundle } from "./bundle.mjs";

const { entryPath } = await ensureBundle("cli", "lib/cli/main.ts");
const { main, createProcessIo } = await import(pathToFileURL(entryPath).href);
process.exitCode = await main(process.argv.slice(2), createProcessIo());
