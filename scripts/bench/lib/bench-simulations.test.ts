import { describe, expect, it } from "vitest";
import { isSimulationPage, simulationIdOfPage } from "./bench-simulations";

describe("simulationIdOfPage", () => {
  it("reads the id from a simulation's page", () => {
    expect(simulationIdOfPage("http://localhost:3290/simulations/cmb7x0k2p0001qz8r4t5y6u7v")).toBe(
      "cmb7x0k2p0001qz8r4t5y6u7v",
    );
  });

  it("ignores a query string and a fragment", () => {
    expect(simulationIdOfPage("http://localhost:3290/simulations/abc123?tab=1#results")).toBe(
      "abc123",
    );
  });

  it("throws on the form's page /simulations/new, which the id pattern would also match", () => {
    expect(() => simulationIdOfPage("http://localhost:3290/simulations/new")).toThrow(
      "http://localhost:3290/simulations/new is not a simulation's page.",
    );
  });

  it("throws on the list, a sub-page and other pages", () => {
    for (const url of [
      "http://localhost:3290/simulations",
      "http://localhost:3290/simulations/",
      "http://localhost:3290/simulations/abc/timeline",
      "http://localhost:3290/signin",
    ]) {
      expect(() => simulationIdOfPage(url), url).toThrow("is not a simulation's page.");
    }
  });

  it("tells a simulation's page from the form's and others, as philly-browser.ts waits for it", () => {
    expect(isSimulationPage(new URL("http://localhost:3290/simulations/abc123"))).toBe(true);
    expect(isSimulationPage(new URL("http://localhost:3290/simulations/new"))).toBe(false);
    expect(isSimulationPage(new URL("http://localhost:3290/simulations"))).toBe(false);
  });
});
