import { describe, expect, it } from "vitest";
import { registerClusterSchema } from "./clusters";

const input = {
  name: "h100",
  gpuType: "H100",
  executor: "slurm",
  nodes: [{ hostname: "n1", gpus: 8 }],
};

describe("registerClusterSchema", () => {
  it("refuses a default minimum runtime above the maximum, on defaultMinRuntimeSec", () => {
    const result = registerClusterSchema.safeParse({
      ...input,
      maxMinRuntimeSec: 3600,
      defaultMinRuntimeSec: 7200,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      [
        "defaultMinRuntimeSec",
        "The default minimum runtime (defaultMinRuntimeSec, 2 h) is above the maximum (maxMinRuntimeSec, 1 h): every job that declares none would be refused. Lower the default or raise the maximum.",
      ],
    ]);
  });

  it("takes a default equal to the maximum, and either one alone", () => {
    const both = { ...input, maxMinRuntimeSec: 3600, defaultMinRuntimeSec: 3600 };
    expect(registerClusterSchema.safeParse(both).success).toBe(true);
    expect(registerClusterSchema.safeParse({ ...input, maxMinRuntimeSec: 600 }).success).toBe(true);
    expect(
      registerClusterSchema.safeParse({ ...input, defaultMinRuntimeSec: 9 * 3600 }).success,
    ).toBe(true);
  });
});
