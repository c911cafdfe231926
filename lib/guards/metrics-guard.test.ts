import { describe, expect, it } from "vitest";
import { checkMetricsAccess, metricsGuardOf } from "./metrics-guard";

const TOKEN = "metrics-token-0123456789";

describe("checkMetricsAccess", () => {
  it("lets the right bearer token in and answers 401 to a missing or wrong one", () => {
    const guard = metricsGuardOf({ ALLOT_METRICS_TOKEN: TOKEN });
    expect(checkMetricsAccess(guard, `Bearer ${TOKEN}`, "10.0.0.9")).toBeNull();
    expect(checkMetricsAccess(guard, `bearer ${TOKEN}`, null)).toBeNull();
    expect(checkMetricsAccess(guard, null, "127.0.0.1")).toEqual({
      code: "unauthorized",
      message: "Send 'Authorization: Bearer <ALLOT_METRICS_TOKEN>' to read the metrics.",
    });
    expect(checkMetricsAccess(guard, `Bearer ${TOKEN}x`, null)?.code).toBe("unauthorized");
    expect(checkMetricsAccess(guard, TOKEN, null)?.code).toBe("unauthorized");
  });

  it("lets allowed addresses and blocks in (IPv4, IPv4-mapped IPv6, IPv6) and answers 403 to others", () => {
    const guard = metricsGuardOf({ ALLOT_METRICS_ALLOW: "127.0.0.1, 10.1.0.0/16,fd00::/8" });
    expect(checkMetricsAccess(guard, null, "127.0.0.1")).toBeNull();
    expect(checkMetricsAccess(guard, null, "::ffff:10.1.200.3")).toBeNull();
    expect(checkMetricsAccess(guard, null, "fd12:3456::1")).toBeNull();
    expect(checkMetricsAccess(guard, null, "10.2.0.1")).toEqual({
      code: "forbidden",
      message: "This address may not read the metrics.",
    });
    expect(checkMetricsAccess(guard, null, null)?.code).toBe("forbidden");
    expect(checkMetricsAccess(guard, null, "not an address")?.code).toBe("forbidden");
  });

  it("with both set, either the address or the token is enough", () => {
    const guard = metricsGuardOf({ ALLOT_METRICS_TOKEN: TOKEN, ALLOT_METRICS_ALLOW: "10.0.0.0/8" });
    expect(checkMetricsAccess(guard, null, "10.3.3.3")).toBeNull();
    expect(checkMetricsAccess(guard, `Bearer ${TOKEN}`, "192.168.1.1")).toBeNull();
    expect(checkMetricsAccess(guard, null, "192.168.1.1")?.code).toBe("unauthorized");
  });

  it("with neither set, refuses everyone, loopback included", () => {
    const refusal = checkMetricsAccess(metricsGuardOf({}), `Bearer ${TOKEN}`, "127.0.0.1");
    expect(refusal?.code).toBe("forbidden");
    expect(refusal?.message).toContain("ALLOT_METRICS_TOKEN");
  });

  it("refuses an allow-list entry that is not an address or block", () => {
    expect(() => metricsGuardOf({ ALLOT_METRICS_ALLOW: "10.0.0.0/8, prometheus.local" })).toThrow(
      'ALLOT_METRICS_ALLOW: "prometheus.local" is not an address or CIDR block.',
    );
    expect(() => metricsGuardOf({ ALLOT_METRICS_ALLOW: "10.0.0.0/x" })).toThrow(/10.0.0.0\/x/);
    // A prefix longer than the address names the variable too, not Node's "out of range".
    expect(() => metricsGuardOf({ ALLOT_METRICS_ALLOW: "10.0.0.0/33" })).toThrow(
      'ALLOT_METRICS_ALLOW: "10.0.0.0/33" is not an address or CIDR block.',
    );
    expect(metricsGuardOf({ ALLOT_METRICS_ALLOW: "10.0.0.0/32, ::1/128" }).allow).not.toBeNull();
  });
});
