import { describe, expect, it } from "vitest";
import { buildLabOrg, DEMO_ORG_SEED } from "./lab-org";
import { historyStartSec, simulateLabHistory } from "./lab-history";

const DAY = 86_400;
// 2026-11-30 13:20:07 UTC: the history runs for the two days before.
const END_SEC = 1_795_958_407;
const org = buildLabOrg(DEMO_ORG_SEED);
const clusters = [{ name: "b300", gpuType: "B300", nodes: 11, gpusPerNode: 8 }];
const history = simulateLabHistory({ org, endSec: END_SEC + 0.4, seed: 5, days: 2, clusters });

describe("simulateLabHistory", () => {
  it("starts exactly the given days before and ends at the whole second of now", () => {
    expect(historyStartSec(END_SEC + 0.4, 2)).toBe(END_SEC - 2 * DAY);
    expect(history.startSec).toBe(historyStartSec(END_SEC, 2));
    expect(history.endSec).toBe(END_SEC);
    expect(history.jobs.length).toBeGreaterThan(100);
    for (const job of history.jobs) {
      expect(job.submittedSec).toBeGreaterThanOrEqual(history.startSec);
      expect(job.submittedSec).toBeLessThan(END_SEC);
      expect(job.endedSec).toBeLessThanOrEqual(END_SEC);
    }
  });

  it("hands over at now: open jobs and runs end cancelled then, nodes come back healthy", () => {
    const open = history.result.jobs.filter((r) => r.state === "pending" || r.state === "running");
    expect(open.length).toBeGreaterThan(0);
    const cancelled = history.jobs.filter((job) => job.state === "cancelled");
    expect(cancelled.map((job) => job.key).sort()).toEqual(open.map((r) => r.job.id).sort());
    expect(cancelled.every((job) => job.endedSec === END_SEC)).toBe(true);
    const cut = history.runs.filter((run) => run.endReason === "cancelled");
    expect(cut.every((run) => run.endSec === END_SEC)).toBe(true);
    const last = new Map<number, string>();
    for (const change of history.nodeChanges) last.set(change.node, change.health);
    expect([...last.values()].every((health) => health === "healthy")).toBe(true);
  });

  it("keeps the simulator's starts, preemptions and automated drains as decisions", () => {
    const count = (kind: string) => history.decisions.filter((d) => d.kind === kind).length;
    expect(count("start")).toBe(history.runs.length);
    const preempted = history.result.jobs.reduce((sum, r) => sum + r.preemptions, 0);
    expect(count("preempt")).toBe(preempted);
    expect(count("drain")).toBe(history.result.clusters[0]!.automatedDrains);
    const starts = history.decisions.filter((d) => d.kind === "start");
    expect(starts.every((d) => (d.reason as { rule: string }).rule.startsWith("start-"))).toBe(
      true,
    );
  });

  it("charges only leaves of the demo tree, by their members, and is the same every time", () => {
    const leafPaths = new Set(history.scenario.tree.map((node) => node.id));
    expect(history.jobs.every((job) => leafPaths.has(job.budgetPath))).toBe(true);
    const again = simulateLabHistory({ org, endSec: END_SEC, seed: 5, days: 2, clusters });
    expect(again.jobs).toEqual(history.jobs);
    expect(again.runs).toEqual(history.runs);
  });
});
