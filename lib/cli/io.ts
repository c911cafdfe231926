import { resolve } from "node:path";

/** What a command may touch: two output streams and files. Tests pass an in-memory one. */
export type CliIo = {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Progress is shown only on a terminal. */
  isStderrTty: boolean;
  readText(path: string): string;
  writeText(path: string, text: string): void;
  /** Throws as `writeText` would if `path` cannot be written; absent where nothing can fail. */
  checkWritable?(path: string): void;
};

/** A bad command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** A bad input file or a failed run: printed as given, exit code 1. */
export class InputError extends Error {}

/** Reads a file, turning a missing or unreadable file into an {@link InputError}. */
export function readInput(io: CliIo, path: string): string {
  try {
    return io.readText(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code;
    throw new InputError(`${path}: cannot read (${why ?? "unknown error"})`);
  }
}

/** Refuses an output path that cannot be written, before the work that fills it. */
export function checkOutput(io: CliIo, path: string): void {
  try {
    io.checkWritable?.(path);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unknown error";
    throw new InputError(`${path}: cannot write (${code})`);
  }
}

/**
 * Refuses output flags that name the input file or one another (`simulate s.json --out s.json`):
 * the later write would replace the scenario, or the first output, without a word.
 */
export function checkOutputsApart(
  command: string,
  input: { what: string; path: string },
  outputs: Record<string, unknown>,
): void {
  const taken = new Map([[resolve(input.path), `the ${input.what} ${input.path}`]]);
  for (const [flag, path] of Object.entries(outputs)) {
    if (typeof path !== "string") continue;
    const owner = taken.get(resolve(path));
    if (owner !== undefined) {
      throw new UsageError(`${command}: --${flag} ${path} would overwrite ${owner}`);
    }
    taken.set(resolve(path), `--${flag}'s file`);
  }
}

/** Writes a file, turning a failure into an {@link InputError}. */
export function writeOutput(io: CliIo, path: string, text: string): void {
  try {
    io.writeText(path, text);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unknown error";
    throw new InputError(`${path}: cannot write (${code})`);
  }
}
