import { describe, expect, it } from "vitest";
import type { Figures, WhatIfRow } from "./compare";
import { selectChartBars } from "./chart-rows";

function figures(entitled: number, received: number): Figures {
  return {
    effectiveShare: 0.1,
    entitledGpuHours: entitled,
    receivedGpuHours: received,
    allocatedGpuHours: received,
    unallocatedGpuHours: 0,
    fulfilment: null,
    waits: {},
  };
}

function row(label: string, depth: number, before: number, draft: number): WhatIfRow {
  return {
    id: label,
    label,
    name: label,
    parentId: depth === 0 ? null : "lab",
    depth,
    isLeaf: depth > 1,
    isTotal: depth === 0,
    isNew: false,
    isLeftOut: false,
    draftLabel: null,
    happened: figures(before, before),
    current: null,
    draft: figures(draft, draft),
  };
}

describe("selectChartBars", () => {
  it("has one bar per child of the branch, leaves below them left to the table", () => {
    const rows = [
      row("lab", 0, 300, 300),
      row("language", 1, 100, 150),
      row("language/lm-eval", 2, 100, 150),
      row("vision", 1, 200, 150),
    ];
    expect(selectChartBars(rows, false)).toEqual([
      {
        name: "language",
        happened: 100,
        current: 0,
        draft: 150,
        entitledNow: 100,
        entitledDraft: 150,
        budgets: 1,
      },
      {
        name: "vision",
        happened: 200,
        current: 0,
        draft: 150,
        entitledNow: 200,
        entitledDraft: 150,
        budgets: 1,
      },
    ]);
  });

  it("keeps the largest changes in tree order and sums the rest (edge: 60 budgets)", () => {
    // b0..b59; b10 gains 50, b20 loses 80, b30 gains 5, the others do not change.
    const change: Record<number, number> = { 10: 50, 20: -80, 30: 5 };
    const rows = [
      row("lab", 0, 6000, 6000),
      ...Array.from({ length: 60 }, (_, i) => row(`b${i}`, 1, 100, 100 + (change[i] ?? 0))),
    ];
    const bars = selectChartBars(rows, false, 4);
    expect(bars.map((bar) => [bar.name, bar.happened, bar.draft, bar.budgets])).toEqual([
      ["b10", 100, 150, 1],
      ["b20", 100, 20, 1],
      ["b30", 100, 105, 1],
      ["57 others", 5700, 5700, 57],
    ]);
  });
});
