import { describe, expect, it } from "vitest";
import { docHref } from "./doc-links";

describe("docHref", () => {
  it("leads to served documents and decision records, with their heading", () => {
    expect(docHref("security.md", "concepts.md")).toBe("/docs/security.md");
    expect(docHref("ranking.md#the-queue", "concepts.md")).toBe("/docs/ranking.md#the-queue");
    expect(docHref("decisions/092-debug-waits.md", "simulations.md")).toBe(
      "/docs/decisions/092-debug-waits.md",
    );
    expect(docHref("../ranking.md", "decisions/011-share-guard-on-preemption.md")).toBe(
      "/docs/ranking.md",
    );
    expect(docHref("openapi.json", "api.md")).toBe("/api/v1/openapi.json");
    expect(docHref("098-short-jobs-first.md", "decisions/092-debug-waits.md")).toBe(
      "/docs/decisions/098-short-jobs-first.md",
    );
  });

  it("keeps headings and other sites as written", () => {
    expect(docHref("#speed", "simulations.md")).toBe("#speed");
    expect(docHref("https://slurm.schedmd.com/fair_tree.html", "ranking.md")).toBe(
      "https://slurm.schedmd.com/fair_tree.html",
    );
  });

  it("gives null for what the app does not serve", () => {
    expect(docHref("../README.md", "concepts.md")).toBeNull();
    expect(docHref("../lib/engine/fair-tree.ts", "ranking.md")).toBeNull();
    expect(docHref("archive/speed-history.md", "simulations.md")).toBeNull();
    expect(docHref("decisions/../../package.json", "ranking.md")).toBeNull();
    expect(docHref("javascript:alert(1)", "ranking.md")).toBeNull();
  });
});
