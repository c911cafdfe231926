// Generators of malformed input for the API fuzz test (lib/api/input-fuzz.db.test.ts): every
// value here is wrong for the field it is given to, whatever the rest of the request says.
import fc from "fast-check";

/** A number written into the JSON text as is: `1e400` parses to Infinity, 2^53 + 1 rounds. */
export class RawNumber {
  constructor(readonly text: string) {}
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => String.fromCharCode(from + index));

/** C0 controls, DEL and C1 controls: what names and ids may never contain. */
export const CONTROL_CHARS = [...range(0x00, 0x1f), "\u007f", ...range(0x80, 0x9f)];
/** What free text (reasons, messages) may never contain: the controls but tab, LF and CR. */
export const TEXT_CONTROL_CHARS = CONTROL_CHARS.filter((char) => !"\t\n\r".includes(char));

/** A JSON body as text, with RawNumber values spliced in verbatim. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RawNumber) {
      raws.push(item.text);
      return `\u0000raw${raws.length - 1}\u0000`;
    }
    return item;
  });
  return (text ?? "null").replace(/"\\u0000raw(\d+)\\u0000"/g, (_, index: string) => raws[+index]!);
}

/** A short, readable rendering of a generated value for failure messages. */
export function preview(value: unknown): string {
  const text =
    value instanceof RawNumber
      ? value.text
      : typeof value === "string"
        ? JSON.stringify(value)
        : (toJsonText(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 40)}... (${text.length} chars)` : text;
}

function spliced(valid: string, chars: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(chars, fc.nat(valid.length))
    .map(([char, at]) => valid.slice(0, at) + char + valid.slice(at));
}

// NUL is what PostgreSQL refuses outright: give it more weight than the other controls.
const nul = fc.constant("\u0000");
const controlChar = fc.oneof(
  { weight: 2, arbitrary: nul },
  { weight: 3, arbitrary: fc.constantFrom(...CONTROL_CHARS) },
);
const textControlChar = fc.oneof(
  { weight: 2, arbitrary: nul },
  { weight: 3, arbitrary: fc.constantFrom(...TEXT_CONTROL_CHARS) },
);
const loneSurrogate = fc.constantFrom("\ud800", "\udfff", "\udbff");

const notAString = fc.constantFrom<unknown>(null, true, 0, 42, -1, [], {}, ["x"], { a: 1 });
const notANumber = fc.constantFrom<unknown>(
  null,
  true,
  "7",
  "",
  "1e3",
  "NaN",
  "Infinity",
  [],
  {},
  [1],
  { n: 1 },
);

/**
 * A wrong value for a one-line string field (a name, id, email or cluster name) whose valid
 * example is `valid`: a control character anywhere, a lone surrogate, one character too many,
 * a 100,000-character string, or no string at all.
 */
export function badLine(valid: string, maxLength: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: spliced(valid, controlChar) },
    { weight: 1, arbitrary: spliced(valid, loneSurrogate) },
    { weight: 1, arbitrary: fc.constant(valid.padEnd(maxLength + 1, "x")) },
    { weight: 1, arbitrary: fc.constant("x".repeat(100_000)) },
    { weight: 1, arbitrary: notAString },
  );
}

/** A wrong value for free text (a reason, a message): as badLine, but tab and newlines are fine. */
export function badText(valid: string, maxLength: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: spliced(valid, textControlChar) },
    { weight: 1, arbitrary: spliced(valid, loneSurrogate) },
    { weight: 1, arbitrary: fc.constant(valid.padEnd(maxLength + 1, "x")) },
    { weight: 1, arbitrary: notAString },
  );
}

const INT4_MAX = 2 ** 31 - 1;

/**
 * A wrong value for a whole-number field stored in an int4 column (or capped at `max`): past
 * the column's range, fractional, infinite, beyond 2^53, or not a number.
 */
export function badInt(max = INT4_MAX): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(2 ** 31, -(2 ** 31) - 1, 1e15, 2 ** 53, max + 1, 1.5, -0.5),
    fc.integer({ min: Math.max(max, INT4_MAX) + 1, max: Number.MAX_SAFE_INTEGER }),
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -(2 ** 31) - 1 }),
    fc.constantFrom(
      new RawNumber("1e400"),
      new RawNumber("-1e400"),
      new RawNumber("9007199254740993"),
      new RawNumber("2147483648.0"),
    ),
    notANumber,
  );
}

/** A wrong value for a weight (Float, 0 to 1,000,000). */
export function badWeight(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(-1, -0.001, 1_000_000.5, 1e308, -1e308),
    fc.constantFrom(new RawNumber("1e400"), new RawNumber("-1e400")),
    notANumber,
  );
}

/** A wrong boolean. */
export function badBoolean(): fc.Arbitrary<unknown> {
  return fc.constantFrom<unknown>(null, 0, 1, "true", "yes", [], {});
}

const pad = (value: number, width: number) => String(value).padStart(width, "0");

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysIn(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** The years the API takes: anything outside is refused (docs/decisions/081-input-at-the-edge.md). */
export const YEAR_RANGE = { min: 2000, max: 2100 } as const;

const calendarDate = fc
  .record({ year: fc.integer({ min: 0, max: 9999 }), month: fc.nat(99), day: fc.nat(99) })
  .filter(
    ({ year, month, day }) =>
      year < YEAR_RANGE.min ||
      year > YEAR_RANGE.max ||
      month < 1 ||
      month > 12 ||
      day < 1 ||
      day > daysIn(year, month),
  )
  .map(({ year, month, day }) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`);

/** A wrong value for a day as YYYY-MM-DD: impossible, out of range, misshapen, not a string. */
export function badDate(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: calendarDate },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "2026-02-30",
        "2026-02-29",
        "2100-02-29",
        "2026-04-31",
        "2026-13-01",
        "2026-00-10",
        "9999-12-31",
        "0000-01-01",
        "0050-01-01",
        "1999-12-31",
        "2101-01-01",
        "+275760-09-13",
        "-000001-01-01",
        "2026-1-01",
        "20261001",
        "2026-10-01T",
        "2026-10-01T25:00Z",
        "2026-10-01T23:60Z",
        "2026-10-01T10:00:00+25:00",
        "2026-10-01 00:00",
        "yesterday",
        "",
        " ",
        "2026-10-01\u0000",
      ),
    },
    { weight: 1, arbitrary: notAString },
  );
}

/** A wrong value for a calendar month as YYYY-MM. */
export function badMonth(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc
      .record({ year: fc.integer({ min: 0, max: 9999 }), month: fc.nat(99) })
      .filter(
        ({ year, month }) =>
          year < YEAR_RANGE.min || year > YEAR_RANGE.max || month < 1 || month > 12,
      )
      .map(({ year, month }) => `${pad(year, 4)}-${pad(month, 2)}`),
    fc.constantFrom("0050-01", "9999-12", "1999-12", "2101-01", "2026-13", "2026-1", "202610"),
    fc.constantFrom("2026-10-01", "2026-10\u0000", "October", "+02026-10"),
  );
}

/**
 * A path parameter no resource has: empty, blank, control characters, a lone surrogate,
 * 10,000 characters, dots and slashes, or random Unicode.
 */
export function junkParam(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      "",
      " ",
      "\u0000",
      "%00",
      "..",
      "../../etc/passwd",
      "x".repeat(10_000),
      "\ud800",
      "\u202e",
      "null",
      "-1",
      "1e400",
      "🙂".repeat(60),
    ),
    spliced("cm4fuzz0000000000000000000", controlChar),
    fc.string({ unit: "binary", minLength: 1, maxLength: 40 }),
  );
}

/** A query string with junk: malformed escapes, NUL, repeated and huge keys. */
export function junkQuery(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      "%",
      "%ZZ",
      "%E0%A4%A",
      "%00",
      "a=%00",
      "=",
      "&&&",
      "a=1&a=2",
      `x=${"y".repeat(5_000)}`,
      "month=2026-10&month=2026-11",
    ),
    fc
      .tuple(fc.string({ maxLength: 10 }), fc.string({ unit: "binary", maxLength: 30 }))
      .map(([key, value]) => new URLSearchParams({ [key]: value }).toString()),
  );
}

/** A body that is no JSON object: other JSON types, broken JSON, empty, or nesting 5,000 deep. */
export function junkBodyText(): fc.Arbitrary<string> {
  return fc.constantFrom(
    "",
    "{",
    "nul",
    '{"a":}',
    "\u0000",
    "null",
    "[]",
    '"text"',
    "42",
    "true",
    "[".repeat(5_000) + "]".repeat(5_000),
    `{"x":${"[".repeat(5_000)}${"]".repeat(5_000)}}`,
  );
}
