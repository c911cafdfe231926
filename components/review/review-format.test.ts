import { describe, expect, it } from "vitest";
import { formatFulfilmentPercent } from "@/lib/format";
import { toFulfilmentBars, toUsageBars } from "./review-format";

const budget = (name: string, fulfilment: number | null, receivedGpuHours = 98) => ({
  name,
  fulfilment,
  receivedGpuHours,
  entitledGpuHours: 100,
});

describe("toFulfilmentBars", () => {
  it("labels a bar as the table prints the figure: 98.0%, not 98%", () => {
    const [bar] = toFulfilmentBars([budget("lm-pretrain", 0.98)]);
    expect(bar).toEqual({
      name: "lm-pretrain  98.0%",
      percent: 98,
      text: "98.0%",
      isShort: false,
    });
    expect(bar?.text).toBe(formatFulfilmentPercent(0.98));
  });

  it("never rounds a fulfilment short of 1 up to 100%, and keeps two decimals under 10%", () => {
    const bars = toFulfilmentBars([budget("a", 0.9996), budget("b", 0.052, 5.2), budget("c", 1)]);
    expect(bars.map((bar) => bar.text)).toEqual(["99.9%", "5.20%", "100.0%"]);
    expect(bars.map((bar) => bar.isShort)).toEqual([false, true, false]);
  });

  it("leaves out a budget without demand (no fulfilment)", () => {
    expect(toFulfilmentBars([budget("idle", null, 0)])).toEqual([]);
  });
});

describe("toUsageBars", () => {
  it("labels each cluster's bar in the page's percent format; no ratio draws an empty bar", () => {
    const bars = toUsageBars(
      [{ id: "a", name: "lm-pretrain" }],
      [
        { cluster: "b300", ratios: { a: 0.98 } },
        { cluster: "h100", ratios: { a: 0.0412 } },
        { cluster: "b200", ratios: { a: null } },
      ],
    );
    expect(bars).toEqual([
      {
        name: "lm-pretrain",
        percentByCluster: { b300: 98, h100: 4.12, b200: 0 },
        textByCluster: { b300: "98.0%", h100: "4.12%", b200: "—" },
      },
    ]);
  });
});
