import { describe, expect, it } from "vitest";
import {
  leaseHolderId,
  leaseTimes,
  nextLeadership,
  wasLeaseVacant,
  type Leadership,
} from "./leadership";

const follower: Leadership = { isLeading: false, deadlineMs: 0 };
const leader: Leadership = { isLeading: true, deadlineMs: 26_000 };

describe("nextLeadership", () => {
  it("a follower that takes the lease leads until sent + TTL - safety (30 s - 5 s)", () => {
    expect(nextLeadership(follower, { kind: "held", sentAtMs: 1000 }, 1050)).toEqual({
      leadership: { isLeading: true, deadlineMs: 26_000 },
      change: "lead",
    });
  });

  it("a renewal moves the deadline and changes nothing", () => {
    expect(nextLeadership(leader, { kind: "held", sentAtMs: 11_000 }, 11_020)).toEqual({
      leadership: { isLeading: true, deadlineMs: 36_000 },
      change: null,
    });
  });

  it("another holder's lease: a leader loses at once, a follower stays one", () => {
    expect(nextLeadership(leader, { kind: "taken" }, 12_000)).toEqual({
      leadership: follower,
      change: "lose",
    });
    expect(nextLeadership(follower, { kind: "taken" }, 12_000)).toEqual({
      leadership: follower,
      change: null,
    });
  });

  it("a failed renewal keeps leadership until the deadline, not a millisecond more", () => {
    expect(nextLeadership(leader, { kind: "unknown" }, 25_999)).toEqual({
      leadership: leader,
      change: null,
    });
    expect(nextLeadership(leader, { kind: "unknown" }, 26_000)).toEqual({
      leadership: follower,
      change: "lose",
    });
  });

  it("an answer that arrives after its own deadline counts as lost (a stalled database)", () => {
    expect(nextLeadership(leader, { kind: "held", sentAtMs: 1000 }, 26_000)).toEqual({
      leadership: follower,
      change: "lose",
    });
    expect(nextLeadership(follower, { kind: "held", sentAtMs: 1000 }, 40_000).change).toBeNull();
  });

  it("other times to live: 10 s with 2 s of safety", () => {
    expect(nextLeadership(follower, { kind: "held", sentAtMs: 0 }, 5, 10, 2).leadership).toEqual({
      isLeading: true,
      deadlineMs: 8000,
    });
  });
});

describe("wasLeaseVacant", () => {
  it("never taken: vacant (the first start resumes the demo's clock as before)", () => {
    expect(wasLeaseVacant({ dbNowMs: 5000, previousExpiresAtMs: null })).toBe(true);
  });

  it("a failover after 30 s or a handover at once: not vacant; over 60 s: vacant", () => {
    expect(wasLeaseVacant({ dbNowMs: 100_000, previousExpiresAtMs: 70_000 })).toBe(false);
    expect(wasLeaseVacant({ dbNowMs: 100_000, previousExpiresAtMs: 100_000 })).toBe(false);
    expect(wasLeaseVacant({ dbNowMs: 100_000, previousExpiresAtMs: 40_000 })).toBe(false);
    expect(wasLeaseVacant({ dbNowMs: 100_001, previousExpiresAtMs: 40_000 })).toBe(true);
  });
});

describe("leaseHolderId", () => {
  it("joins host, pid and nonce", () => {
    expect(leaseHolderId("allot-1", 4242, "9f3a1c")).toBe("allot-1:4242:9f3a1c");
  });
});

describe("leaseTimes", () => {
  it("is the defaults for 30 s, and keeps their proportions for a shorter lease", () => {
    expect(leaseTimes()).toEqual({ ttlSec: 30, renewSec: 10, safetySec: 5 });
    expect(leaseTimes(12)).toEqual({ ttlSec: 12, renewSec: 4, safetySec: 2 });
    const short = leaseTimes(6);
    // Two renewals fit before a holder must stop: one slow answer does not cost the lease.
    expect((short.ttlSec - short.safetySec) / short.renewSec).toBeCloseTo(2.5);
  });
});
