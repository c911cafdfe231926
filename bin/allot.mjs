#!/usr/bin/env node
// The `allot` npm bin: registers tsx's ESM loader, then runs the TypeScript CLI in-process.
import { register } from "tsx/esm/api";

register();
const { main, createProcessIo } = await import("../lib/cli/main.ts");
process.exitCode = await main(process.argv.slice(2), createProcessIo());
