import { parseCommandArgs } from "./args";
import { UsageError } from "./io";

/** The range `npm run db:rollup` rebuilds, epoch seconds; absent ends take the defaults. */
export type RollupRange = { fromSec?: number; toSec?: number; isHelp: boolean };

export const ROLLUP_HELP = `usage: npm run db:rollup [-- --from <time>] [--to <time>]

Rebuilds the hourly roll-ups (usage_hourly) of every cluster from runs, jobs and node health
history, in one transaction. Times are ISO 8601 dates (UTC midnight) or times with a zone
(2026-11-01, 2026-11-01T08:00Z). --from is rounded down to its hour, --to up to the next hour. Default:
from the first job's submission to the last tick (or the app clock's now when no cluster has
ticked).`;

/** A date (UTC midnight) or a time with its zone: 2026-11-01, 2026-11-01T08:00Z, ...+01:00. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function parseTime(name: string, text: string): number {
  const ms = ISO_TIME.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) {
    throw new UsageError(
      `db:rollup: --${name} "${text}" is not an ISO date or a time with its zone ` +
        `(e.g. 2026-11-01 or 2026-11-01T08:00Z)`,
    );
  }
  return ms / 1000;
}

/**
 * Parses `db:rollup`'s flags; a {@link UsageError} with one clear line for bad input.
 *
 * @example parseRollupArgs(["--from", "2026-11-01"]) // { fromSec: 1793491200, isHelp: false }
 */
export function parseRollupArgs(argv: string[]): RollupRange {
  const args = parseCommandArgs("db:rollup", argv, {
    from: { type: "string" },
    to: { type: "string" },
  });
  if (args.positionals.length > 0) {
    throw new UsageError(`db:rollup: unexpected argument "${args.positionals[0]}" (see --help)`);
  }
  const range: RollupRange = { isHelp: args.values.help === true };
  if (typeof args.values.from === "string") range.fromSec = parseTime("from", args.values.from);
  if (typeof args.values.to === "string") range.toSec = parseTime("to", args.values.to);
  if (range.fromSec !== undefined && range.toSec !== undefined && range.fromSec >= range.toSec) {
    throw new UsageError("db:rollup: --from must be before --to");
  }
  return range;
}
