import { describe, expect, it } from "vitest";
import {
  isAllocatedRun,
  isProtected,
  preemptionOutcome,
  protectedUntilSec,
  validateContract,
} from "./contract";

describe("validateContract", () => {
  it("accepts 0 up to the maximum minimum runtime", () => {
    expect(validateContract({ gpus: 8, minRuntimeSec: 0 }).ok).toBe(true);
    expect(validateContract({ gpus: 8, minRuntimeSec: 8 * 3600 }).ok).toBe(true);
  });

  it("min runtime above the maximum (default 8 h) is a clear error value", () => {
    expect(validateContract({ gpus: 8, minRuntimeSec: 8 * 3600 + 1 })).toEqual({
      ok: false,
      issues: [
        {
          code: "min-runtime-too-long",
          message: "Minimum runtime 28801 s is above this cluster's maximum of 28800 s.",
        },
      ],
    });
    expect(validateContract({ gpus: 8, minRuntimeSec: 7200 }, 3600).ok).toBe(false);
  });

  it("refuses fractional, zero or negative GPUs and negative or NaN runtimes", () => {
    const codes = (gpus: number, minRuntimeSec: number) => {
      const result = validateContract({ gpus, minRuntimeSec });
      return result.ok ? [] : result.issues.map((issue) => issue.code);
    };
    expect(codes(0, 0)).toEqual(["invalid-gpus"]);
    expect(codes(1.5, -1)).toEqual(["invalid-gpus", "invalid-min-runtime"]);
    expect(codes(1, Number.NaN)).toEqual(["invalid-min-runtime"]);
  });
});

describe("allocation and protection", () => {
  it("min runtime 0 or a zero share makes a run unallocated", () => {
    expect(isAllocatedRun(0, 0.5)).toBe(false);
    expect(isAllocatedRun(3600, 0)).toBe(false);
    expect(isAllocatedRun(1, 1e-9)).toBe(true);
  });

  it("protects allocated runs strictly before start + min runtime; unallocated never", () => {
    expect(protectedUntilSec(100, 3600, true)).toBe(3700);
    expect(protectedUntilSec(100, 3600, false)).toBe(100);
    expect(isProtected({ isAllocated: true, protectedUntilSec: 3700 }, 3699)).toBe(true);
    expect(isProtected({ isAllocated: true, protectedUntilSec: 3700 }, 3700)).toBe(false);
    expect(isProtected({ isAllocated: false, protectedUntilSec: 3700 }, 0)).toBe(false);
  });

  it("non-resumable preemption ends the job; resumable requeues it", () => {
    expect(preemptionOutcome(false)).toBe("preempted");
    expect(preemptionOutcome(true)).toBe("requeued");
  });
});
