import { describe, expect, it } from "vitest";
import {
  formatBudgetCounts,
  formatDate,
  formatDateTime,
  formatGpuHours,
  formatInteger,
  formatLevelFairShare,
  formatUsageRatio,
  formatNumber,
  formatPercent,
  formatShare,
  formatFulfilment,
  formatFulfilmentPercent,
  formatSimMoment,
  formatWait,
  formatGpuHoursNumber,
  formatWeight,
  formatWholePercent,
} from "./format";

describe("formats", () => {
  it("shows shares with one decimal, two below 10%, and zero plainly", () => {
    expect(formatPercent(0.35)).toBe("35.0%");
    expect(formatPercent(0.0364)).toBe("3.64%");
    expect(formatPercent(1)).toBe("100.0%");
    expect(formatPercent(0)).toBe("0.0%");
  });

  it("groups thousands and rounds GPU-hours", () => {
    expect(formatInteger(8584.8)).toBe("8,585");
    expect(formatInteger(172032)).toBe("172,032");
  });

  it("shows weights as typed", () => {
    expect(formatWeight(40)).toBe("40");
    expect(formatWeight(2.5)).toBe("2.5");
    expect(formatWeight(1 / 3)).toBe("0.3333");
    // A weight above 0 never reads as 0: it is owed GPU time, a weight of 0 is not.
    expect(formatWeight(0.000001)).toBe("0.000001");
    expect(formatWeight(0.00001234567)).toBe("0.00001235");
    expect(formatWeight(1e-9)).toBe("1e-9");
  });

  it("shows instants in one format, in UTC, from an ISO string, seconds or a Date", () => {
    expect(formatDateTime("2026-11-30T11:38:34.000Z")).toBe("2026-11-30 11:38 UTC");
    expect(formatDateTime(1_796_040_000)).toBe("2026-11-30 12:00 UTC");
    expect(formatDateTime(new Date("2026-01-05T03:04:59Z"))).toBe("2026-01-05 03:04 UTC");
  });

  it("shows days as the date part of that format (chart labels, a draft's day)", () => {
    expect(formatDate(1_796_040_000)).toBe("2026-11-30");
    expect(formatDate("2026-01-05T23:59:59Z")).toBe("2026-01-05");
  });

  it("shows moments on a scenario's clock as day N, HH:MM (day 1 first; never negative)", () => {
    expect(formatSimMoment(0)).toBe("day 1, 00:00");
    expect(formatSimMoment(2 * 86_400 + 14 * 3600 + 5 * 60 + 59)).toBe("day 3, 14:05");
    expect(formatSimMoment(-5)).toBe("day 1, 00:00");
  });

  it("says what a budget count counts: leaves and nodes of the tree, singular and plural", () => {
    expect(formatBudgetCounts(58, 68)).toBe("58 leaf budgets, 68 nodes in the tree");
    expect(formatBudgetCounts(1, 1)).toBe("1 leaf budget, 1 node in the tree");
    expect(formatBudgetCounts(1200, 1500)).toBe("1,200 leaf budgets, 1,500 nodes in the tree");
  });
});

describe("live time formats", () => {
  it("writes clock times on the same day and dates on others (UTC)", async () => {
    const { liveTimeFormatter } = await import("./format");
    const clock = liveTimeFormatter(1_796_040_000); // 2026-11-30 12:00 UTC
    expect(clock(1_796_040_000 + 3600)).toBe("13:00 UTC");
    expect(clock(1_796_040_000 + 86_400)).toBe("2026-12-01 12:00 UTC");
  });

  it("writes waits and countdowns in two units at most", async () => {
    const { formatSpan } = await import("./format");
    expect(formatSpan(42)).toBe("42 s");
    expect(formatSpan(720)).toBe("12 min");
    expect(formatSpan(11_100)).toBe("3 h 05 min");
    expect(formatSpan(187_200)).toBe("2 d 4 h");
  });
});

describe("numbers, shares and waits", () => {
  it("groups thousands with fixed decimals, the sign before the digits", () => {
    expect(formatNumber(1234567)).toBe("1,234,567");
    expect(formatNumber(-1234.56, 1)).toBe("-1,234.6");
    expect(formatNumber(20, 1)).toBe("20.0");
    expect(formatNumber(999.5)).toBe("1,000");
  });

  it("writes GPU-hours rounded, with their unit", () => {
    expect(formatGpuHours(1234.4)).toBe("1,234 GPU-h");
    expect(formatGpuHours(0)).toBe("0 GPU-h");
  });

  it("writes shares with one decimal and a dash (or the caller's mark) for none", () => {
    expect(formatShare(0.9731)).toBe("97.3%");
    expect(formatShare(0.0364)).toBe("3.6%");
    expect(formatShare(null)).toBe("–");
    expect(formatShare(null, "-")).toBe("-");
  });

  it("never writes a fulfilment below 1 as 100.0%, and exactly 1 as 100.0%", () => {
    expect(formatFulfilment(0.9996)).toBe("99.9%");
    expect(formatFulfilmentPercent(0.9996)).toBe("99.9%");
    expect(formatFulfilmentPercent(1)).toBe("100.0%");
    expect(formatFulfilmentPercent(0.052)).toBe("5.20%");
    expect(formatFulfilment(0.9995)).toBe("99.9%");
    expect(formatFulfilment(0.99949)).toBe("99.9%");
    expect(formatFulfilment(0.9999999)).toBe("99.9%");
    expect(formatFulfilment(1)).toBe("100.0%");
    expect(formatFulfilment(0.973)).toBe("97.3%");
    expect(formatFulfilment(0.57)).toBe("57.0%");
    expect(formatFulfilment(0)).toBe("0.0%");
    expect(formatFulfilment(null)).toBe("–");
    expect(formatFulfilment(null, "-")).toBe("-");
  });

  it("writes a level fair-share in four digits, never in exponent form from 10,000 up", () => {
    expect(formatLevelFairShare(1.07712)).toBe("1.077");
    expect(formatLevelFairShare(0.17812)).toBe("0.1781");
    expect(formatLevelFairShare(543.44)).toBe("543.4");
    expect(formatLevelFairShare(1564.2)).toBe("1,564");
    expect(formatLevelFairShare(90_270.4)).toBe("90,270");
    expect(formatLevelFairShare(319_800)).toBe("319,800");
    expect(formatLevelFairShare(Infinity)).toBe("inf");
    expect(formatLevelFairShare("inf")).toBe("inf");
    expect(formatLevelFairShare(null)).toBe("-");
  });

  it("writes a usage ratio in three decimals, '-' when owed nothing", () => {
    expect(formatUsageRatio(0.02391)).toBe("0.024");
    expect(formatUsageRatio(1.3333)).toBe("1.333");
    expect(formatUsageRatio(0)).toBe("0.000");
    expect(formatUsageRatio(null)).toBe("-");
  });

  it("writes progress in whole percent", () => {
    expect(formatWholePercent(0.426)).toBe("43%");
    expect(formatWholePercent(1)).toBe("100%");
    expect(formatWholePercent(0)).toBe("0%");
  });

  it("writes a wait in one unit, a decimal below ten hours and in days", () => {
    expect(formatWait(45.4)).toBe("45 s");
    expect(formatWait(720)).toBe("12 min");
    expect(formatWait(12_600)).toBe("3.5 h");
    expect(formatWait(43_200)).toBe("12 h");
    expect(formatWait(181_440)).toBe("2.1 d");
  });

  it("writes GPU-hours whole from 10 up and with one decimal under it", () => {
    expect(formatGpuHoursNumber(1234.4)).toBe("1,234");
    expect(formatGpuHoursNumber(9.96)).toBe("10");
    expect(formatGpuHoursNumber(9.94)).toBe("9.9");
    expect(formatGpuHoursNumber(0.43)).toBe("0.4");
    expect(formatGpuHoursNumber(0)).toBe("0");
  });
});
