import { readFileSync, writeFileSync } from "node:fs";
import { assertWritable } from "./file-checks";
import type { CliIo } from "./io";
import { main } from "./main";

/**
 * Runs the command line in this process on the real file system, keeping its streams for the
 * test; stderr is shown as a terminal's if asked.
 */
export async function runMain(argv: string[], isStderrTty = false) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    isStderrTty,
    readText: (file) => readFileSync(file, "utf8"),
    writeText: (file, text) => writeFileSync(file, text),
    checkWritable: assertWritable,
  };
  const code = await main(argv, io);
  return { code, stdout: out.join(""), stderr: err.join("") };
}

/** `allot simulate` of both schedulers on `threads` threads, writing a report and a timeline. */
export function simulateBothArgs(
  scenarioPath: string,
  threads: number,
  reportPath: string,
  timelinePath: string,
): string[] {
  return [
    "simulate",
    scenarioPath,
    "--scheduler",
    "both",
    "--threads",
    String(threads),
    "--out",
    reportPath,
    "--timeline",
    timelinePath,
  ];
}
