import { readFileSync, writeFileSync } from "node:fs";
import { assertWritable } from "./file-checks";
import type { LiveDeps } from "./api-config";
import type { CliIo } from "./io";
import { main } from "./main";

/**
 * Runs the command line in this process on the real file system, keeping its streams for the
 * test; stderr is shown as a terminal's if asked.
 */
export async function runMain(argv: string[], isStderrTty = false) {
  const { io, result } = captureIo({
    isStderrTty,
    readText: (file) => readFileSync(file, "utf8"),
    writeText: (file, text) => writeFileSync(file, text),
    checkWritable: assertWritable,
  });
  return result(await main(argv, io));
}

/**
 * An in-memory CliIo (no files unless `overrides` give them) and the command's result: its exit
 * code with what it printed to each stream.
 */
export function captureIo(overrides: Partial<CliIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    isStderrTty: false,
    readText: () => "",
    writeText: () => undefined,
    ...overrides,
  };
  const result = (code: number) => ({ code, stdout: out.join(""), stderr: err.join("") });
  return { io, result };
}

/** The config file a live command reads when `env` leaves server or token unset (never there). */
export const LIVE_CONFIG_FILE = "/home/rae/.config/allot/config.json";

/**
 * Runs a live command in this process with `env` as its environment (ALLOT_SERVER,
 * ALLOT_TOKEN) and no config file, keeping its streams for the test.
 */
export async function runLive(argv: string[], env: Record<string, string>) {
  const { io, result } = captureIo();
  const live: LiveDeps = { env, homeDir: "/home/rae", readConfigFile: () => null };
  return result(await main(argv, io, live));
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
