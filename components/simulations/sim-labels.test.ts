import { describe, expect, it } from "vitest";
import { simulationOptionsSchema } from "@/lib/validation/simulations";
import { describeDaysOption } from "./sim-labels";

describe("describeDaysOption", () => {
  it("says why the browser stops at 120 days when allot generate goes to 366", () => {
    expect(describeDaysOption("lab")).toBe(
      "Length of the generated workload. Empty: 14 days. At most 120: it runs on the shared server (allot generate goes to 366).",
    );
    expect(describeDaysOption("philly")).toBe(
      "Only the trace's first days. Empty: the whole trace. At most 120: it runs on the shared server (allot generate goes to 366).",
    );
  });

  it("gives the limit the server checks, at its edge", () => {
    expect(simulationOptionsSchema.safeParse({ days: 120 }).success).toBe(true);
    const over = simulationOptionsSchema.safeParse({ days: 121 });
    expect(over.error?.issues.map((issue) => issue.message)).toEqual([
      "A simulation runs at most 120 days.",
    ]);
  });
});
