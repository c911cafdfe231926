import { parseArgs, type ParseArgsConfig } from "node:util";
import { formatDurationSec, MAX_DURATION_SEC, parseDurationSec } from "../sim";
import { UsageError } from "./io";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parsed flags and positionals of one command. */
export type ParsedArgs = {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
};

/**
 * node:util parseArgs, strict, with its errors turned into one clear line (a {@link UsageError}):
 * `simulate: unknown option --foo (see allot simulate --help)`.
 */
export function parseCommandArgs(command: string, argv: string[], options: Options): ParsedArgs {
  const withHelp: Options = { ...options, help: { type: "boolean", short: "h" } };
  try {
    const parsed = parseArgs({
      args: joinNegativeValues(argv, options),
      options: withHelp,
      allowPositionals: true,
      strict: true,
    });
    return { values: parsed.values as ParsedArgs["values"], positionals: parsed.positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: string }).code;
    const name = /'([^']+)'/.exec(message)?.[1] ?? "";
    // Node names an option with a short form as "-M, --cluster <value>": the long one is shown.
    const flag = /--[\w-]+/.exec(name)?.[0] ?? name;
    const what =
      code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? `unknown option ${name}`
        : code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE"
          ? withHelp[flag.slice(2)]?.type === "boolean"
            ? `option ${flag} takes no value`
            : `option ${flag} needs a value`
          : message.split("\n")[0];
    throw new UsageError(`${command}: ${what} (see allot ${command} --help)`);
  }
}

/**
 * `--days -3` as `--days=-3`: parseArgs reads "-3" as an option and answers "needs a value";
 * joined, the flag's own check says what it takes ("must be a whole number from 1 to 366, got
 * "-3""). Only for string options followed by a negative number.
 */
function joinNegativeValues(argv: readonly string[], options: Options): string[] {
  const isStringOption = (token: string): boolean => {
    const long = token.startsWith("--") ? token.slice(2) : null;
    if (long !== null) return options[long]?.type === "string";
    if (!/^-[A-Za-z]$/.test(token)) return false;
    return Object.values(options).some(
      (option) => option.short === token[1] && option.type === "string",
    );
  };
  const joined: string[] = [];
  for (let at = 0; at < argv.length; at += 1) {
    const token = argv[at]!;
    const next = argv[at + 1];
    if (next !== undefined && /^-\d/.test(next) && isStringOption(token)) {
      // A short option takes its value attached (`-G-1`); a long one after "=".
      joined.push(token.startsWith("--") ? `${token}=${next}` : `${token}${next}`);
      at += 1;
    } else joined.push(token);
  }
  return joined;
}

/** A string flag's value, or a {@link UsageError} when it is required and missing. */
export function requireString(command: string, args: ParsedArgs, name: string): string {
  const value = args.values[name];
  if (typeof value !== "string" || value === "")
    throw new UsageError(`${command}: --${name} is required`);
  return value;
}

/** Parses a duration flag (`--at 3d`), or throws a {@link UsageError}. */
export function parseDurationFlag(command: string, name: string, text: string): number {
  const sec = parseDurationSec(text);
  if (sec === null) {
    throw new UsageError(
      `${command}: --${name} "${text}" is not a duration (e.g. 90s, 15m, 8h, 7d, 1h30m, 1:30:00)`,
    );
  }
  if (sec > MAX_DURATION_SEC) {
    throw new UsageError(
      `${command}: --${name} "${text}" is longer than five years (${formatDurationSec(MAX_DURATION_SEC)})`,
    );
  }
  return sec;
}

/** Parses a whole-number flag within bounds, or throws a {@link UsageError}. */
export function parseIntegerFlag(
  command: string,
  name: string,
  text: string,
  min: number,
  max: number,
): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(
      `${command}: --${name} must be a whole number from ${min} to ${max}, got "${text}"`,
    );
  }
  return value;
}

/** Exactly `count` positionals, or a {@link UsageError} naming what is missing or extra. */
export function expectPositionals(command: string, args: ParsedArgs, names: string[]): string[] {
  if (args.positionals.length < names.length) {
    throw new UsageError(
      `${command}: missing <${names[args.positionals.length]}> (see allot ${command} --help)`,
    );
  }
  if (args.positionals.length > names.length) {
    throw new UsageError(`${command}: unexpected argument "${args.positionals[names.length]}"`);
  }
  return args.positionals;
}
