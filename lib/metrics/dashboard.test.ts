import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportedMetricNames } from "./registry";

const DASHBOARD = path.resolve(import.meta.dirname, "..", "..", "docs", "grafana-allot.json");

type Panel = { title: string; targets?: { expr: string }[] };

/** The metric names a PromQL expression reads: what is left once labels, clauses and functions go. */
function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "");
  const keywords = new Set(["and", "or", "unless", "offset", "bool"]);
  return [...bare.matchAll(/([A-Za-z_:][\w:]*)(\s*\()?/g)]
    .filter((match) => match[2] === undefined)
    .map((match) => match[1]!)
    .filter((word) => !keywords.has(word));
}

describe("the Grafana dashboard (docs/grafana-allot.json)", () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8")) as {
    panels: Panel[];
    templating: { list: { query?: string }[] };
  };
  const exprs = [
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
    ...dashboard.templating.list
      .map((variable) => /label_values\((\w+),/.exec(variable.query ?? "")?.[1])
      .filter((name): name is string => name !== undefined),
  ];

  it("reads names out of PromQL, leaving labels, functions and clauses out", () => {
    expect(
      metricNamesOf(
        'histogram_quantile(0.95, sum by (le, route) (rate(x_bucket{status=~"5.."}[5m]))) and on (a) y',
      ),
    ).toEqual(["x_bucket", "y"]);
  });

  it("has panels, each with a query", () => {
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    for (const panel of dashboard.panels)
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
  });

  it("uses only metric names the app exports", () => {
    const exported = exportedMetricNames();
    const used = new Set(exprs.flatMap(metricNamesOf));
    expect(used.size).toBeGreaterThanOrEqual(15);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });

  it("never sums a gauge read from the database, which every replica reports alike", () => {
    // docs/operations.md, "Two replicas": max (or avg) over replicas first, then sum if need be.
    const fromDatabase =
      /\bsum\s*(?:by\s*\([^)]*\)\s*)?\(\s*(allot_cluster_\w+|allot_budget_\w+|allot_executor_last_event_age_seconds)\b/;
    expect(exprs.filter((expr) => fromDatabase.test(expr))).toEqual([]);
    expect(fromDatabase.test('sum by (state) (allot_cluster_gpus{cluster=~"$cluster"})')).toBe(
      true,
    );
  });
});
