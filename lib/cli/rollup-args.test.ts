import { describe, expect, it } from "vitest";
import { UsageError } from "./io";
import { parseRollupArgs } from "./rollup-args";

const NOV_1 = Date.UTC(2026, 10, 1) / 1000;

describe("parseRollupArgs", () => {
  it("takes no flags, a date, or a time with its zone", () => {
    expect(parseRollupArgs([])).toEqual({ isHelp: false });
    expect(parseRollupArgs(["--from", "2026-11-01", "--to", "2026-11-01T08:30+01:00"])).toEqual({
      fromSec: NOV_1,
      toSec: NOV_1 + 7.5 * 3600,
      isHelp: false,
    });
    expect(parseRollupArgs(["--help"]).isHelp).toBe(true);
  });

  it("refuses bad input with one clear line", () => {
    const cases: [string[], RegExp][] = [
      [["--from", "yesterday"], /--from "yesterday" is not an ISO date or a time with its zone/],
      [["--to", "2026-11-01T08:00"], /--to "2026-11-01T08:00" is not an ISO date/],
      [["--from", "2026-13-40"], /--from "2026-13-40"/],
      [["--from", "2026-11-02", "--to", "2026-11-01"], /--from must be before --to/],
      [["--since", "2026-11-01"], /unknown option --since/],
      [["--from"], /option --from needs a value/],
      [["extra"], /unexpected argument "extra"/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseRollupArgs(argv)).toThrow(UsageError);
      expect(() => parseRollupArgs(argv)).toThrow(message);
    }
  });
});
