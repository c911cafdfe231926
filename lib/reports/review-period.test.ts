import { describe, expect, it } from "vitest";
import {
  datePeriod,
  defaultReviewPeriod,
  formatPeriod,
  lastFullMonth,
  monthPeriod,
  parseIsoDate,
  periodDays,
} from "./review-period";

const sec = (year: number, month: number, day: number, hour = 0) =>
  Date.UTC(year, month - 1, day, hour) / 1000;

describe("review periods", () => {
  it("takes the last month that has ended, across a year boundary too", () => {
    expect(lastFullMonth(sec(2026, 11, 30, 13))).toMatchObject({
      fromSec: sec(2026, 10, 1),
      toSec: sec(2026, 11, 1),
      month: "2026-10",
      fromDate: "2026-10-01",
      toDate: "2026-10-31",
    });
    expect(lastFullMonth(sec(2027, 1, 1)).month).toBe("2026-12");
  });

  it("defaults to the last full month once the history covers it, else the last 30 days", () => {
    const now = sec(2026, 11, 30, 13);
    expect(defaultReviewPeriod(now, sec(2026, 9, 12)).month).toBe("2026-10");
    expect(defaultReviewPeriod(now, sec(2026, 10, 1)).month).toBe("2026-10");
    // The demo's 35 days start on 26 October: the last 30 whole days, up to yesterday.
    const recent = defaultReviewPeriod(now, sec(2026, 10, 26, 13));
    expect(recent).toMatchObject({ month: null, fromDate: "2026-10-31", toDate: "2026-11-29" });
    expect(periodDays(recent)).toBe(30);
    expect(defaultReviewPeriod(sec(2026, 11, 15, 9), sec(2026, 10, 11, 9))).toMatchObject({
      month: null,
      fromDate: "2026-10-16",
      toDate: "2026-11-14",
    });
    expect(defaultReviewPeriod(now, null).toDate).toBe("2026-11-29");
  });

  it("ends with today on an installation's first day, when all its data is today's", () => {
    const now = sec(2026, 11, 30, 13);
    expect(defaultReviewPeriod(now, sec(2026, 11, 30, 9))).toMatchObject({
      fromSec: sec(2026, 11, 1),
      toSec: sec(2026, 12, 1),
    });
    expect(defaultReviewPeriod(now, sec(2026, 11, 29, 23))).toMatchObject({
      toSec: sec(2026, 11, 30),
    });
  });

  it("leaves today out of the last 30 days: it ends at today's UTC midnight, even at 23:59", () => {
    for (const nowSec of [sec(2026, 11, 30), sec(2026, 11, 30, 13), sec(2026, 12, 1) - 60]) {
      expect(defaultReviewPeriod(nowSec, null)).toMatchObject({
        fromSec: sec(2026, 10, 31),
        toSec: sec(2026, 11, 30),
      });
    }
  });

  it("reads months and day ranges (both days included), refusing what is not one", () => {
    expect(periodDays(monthPeriod("2028-02")!)).toBe(29);
    expect(monthPeriod("2026-13")).toBeNull();
    expect(monthPeriod("2026-1")).toBeNull();
    expect(datePeriod("2026-10-03", "2026-10-03")).toMatchObject({
      fromSec: sec(2026, 10, 3),
      toSec: sec(2026, 10, 4),
      month: null,
    });
    expect(datePeriod("2026-10-01", "2026-10-31")!.month).toBe("2026-10");
    expect(datePeriod("2026-10-05", "2026-10-04")).toBeNull();
    expect(parseIsoDate("2026-02-30")).toBeNull();
    expect(parseIsoDate("2026-2-3")).toBeNull();
  });

  it("keeps years 0-99 as written: 0050-01 is January of year 50, not 1950", () => {
    expect(monthPeriod("0050-01")).toMatchObject({
      month: "0050-01",
      fromDate: "0050-01-01",
      toDate: "0050-01-31",
    });
    expect(parseIsoDate("0050-01-01")).toBe(-60_589_296_000);
  });

  it("says the period as people do", () => {
    expect(formatPeriod(monthPeriod("2026-10")!)).toBe("October 2026");
    expect(formatPeriod(datePeriod("2026-10-03", "2026-10-17")!)).toBe("3 Oct 2026 – 17 Oct 2026");
    expect(formatPeriod(datePeriod("2026-10-03", "2026-10-03")!)).toBe("3 Oct 2026");
  });
});
