import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  dayProblem,
  dayString,
  daysInMonth,
  instantDate,
  instantProblem,
  monthProblem,
  parseDayMs,
  parseInstantMs,
} from "./dates";

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("dayProblem", () => {
  it("takes real days from 2000-01-01 to 2100-12-31, and 29 February of leap years", () => {
    expect(dayProblem("2000-01-01")).toBeNull();
    expect(dayProblem("2100-12-31")).toBeNull();
    expect(dayProblem("2028-02-29")).toBeNull();
    expect(dayProblem("2000-02-29")).toBeNull();
  });

  it("refuses 30 February, 31 April, 29 February 2026 and 2100 (not leap)", () => {
    expect(dayProblem("2026-02-30")).toBe("There is no day 30 in February 2026: it has 28 days.");
    expect(dayProblem("2026-04-31")).toBe("There is no day 31 in April 2026: it has 30 days.");
    expect(dayProblem("2026-02-29")).toBe("There is no day 29 in February 2026: it has 28 days.");
    expect(dayProblem("2100-02-29")).toBe("There is no day 29 in February 2100: it has 28 days.");
    expect(dayProblem("2026-10-00")).toBe("There is no day 00 in October 2026: it has 31 days.");
  });

  it("refuses years 0000, 0050, 1999, 2101 and 9999", () => {
    for (const text of ["0000-01-01", "0050-01-01", "1999-12-31", "2101-01-01", "9999-12-31"]) {
      expect(dayProblem(text)).toBe("Use a year from 2000 to 2100.");
    }
  });

  it("refuses other shapes: one-digit parts, no dashes, a time, signed years", () => {
    for (const text of ["2026-1-01", "20261001", "2026-10-01T00:00Z", "+002026-10-01", ""]) {
      expect(dayProblem(text)).toBe("Use a date as YYYY-MM-DD, e.g. 2026-10-01.");
    }
  });
});

describe("monthProblem", () => {
  it("takes 2000-01 to 2100-12, refuses month 00 and 13 and years out of range", () => {
    expect(monthProblem("2026-10")).toBeNull();
    expect(monthProblem("2026-13")).toBe("There is no month 13: months run from 01 to 12.");
    expect(monthProblem("2026-00")).toBe("There is no month 00: months run from 01 to 12.");
    expect(monthProblem("0050-01")).toBe("Use a year from 2000 to 2100.");
    expect(monthProblem("2026-1")).toBe("Use a month as YYYY-MM, e.g. 2026-10.");
  });
});

describe("instantProblem and parseInstantMs", () => {
  it("read a day as its UTC midnight and a time without a zone as UTC", () => {
    expect(parseInstantMs("2026-11-01")).toBe(Date.UTC(2026, 10, 1));
    expect(parseInstantMs("2026-11-01T08:30")).toBe(Date.UTC(2026, 10, 1, 8, 30));
    expect(parseInstantMs("2026-11-01T08:30:05.25Z")).toBe(Date.UTC(2026, 10, 1, 8, 30, 5, 250));
  });

  it("apply an offset: 02:00+02:00 is midnight UTC, 23:00-01:00 is the next day", () => {
    expect(parseInstantMs("2026-11-01T02:00+02:00")).toBe(Date.UTC(2026, 10, 1));
    expect(parseInstantMs("2026-10-31T23:00-01:00")).toBe(Date.UTC(2026, 10, 1));
  });

  it("refuses 24:00, minute 60, offset +25:00, a space for T and impossible days", () => {
    expect(instantProblem("2026-10-01T24:00Z")).toBe(
      "There is no hour 24: hours run from 00 to 23.",
    );
    expect(instantProblem("2026-10-01T23:60Z")).toBe("Minutes and seconds run from 00 to 59.");
    expect(instantProblem("2026-10-01T10:00+25:00")).toBe("There is no time zone offset +25:00.");
    expect(instantProblem("2026-10-01 00:00")).toMatch(/^Give a date such as/);
    expect(instantProblem("2026-02-30T00:00Z")).toBe(
      "There is no day 30 in February 2026: it has 28 days.",
    );
    expect(parseInstantMs("0000-01-01")).toBeNull();
  });
});

describe("day and instant schemas", () => {
  it("trim, then refuse control characters before the date rules", () => {
    expect(dayString().parse(" 2026-10-01 ")).toBe("2026-10-01");
    expect(issuesOf(dayString(), "2026-10-01\u0000")).toEqual([
      "Remove the control character U+0000 at position 11: names and ids cannot contain control characters.",
    ]);
    expect(issuesOf(dayString(), 20261001)).toHaveLength(1);
  });

  it("give a Date for an instant", () => {
    expect(instantDate().parse("2026-11-01")).toEqual(new Date("2026-11-01T00:00:00Z"));
  });
});

describe("parseDayMs and daysInMonth", () => {
  it("give UTC midnight of a real day and null otherwise; February has 28 or 29 days", () => {
    expect(parseDayMs("2026-03-01")).toBe(Date.UTC(2026, 2, 1));
    expect(parseDayMs("2026-02-30")).toBeNull();
    expect([daysInMonth(2026, 2), daysInMonth(2024, 2), daysInMonth(2100, 2)]).toEqual([
      28, 29, 28,
    ]);
  });
});
