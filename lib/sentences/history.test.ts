import { describe, expect, it } from "vitest";
import { actorPhrase, cancelSentence, healthChangeSentence, stateAgePhrase } from "./history";

describe("actorPhrase", () => {
  it("names a person, the executor, the demo executor, and says when nobody was recorded", () => {
    expect(actorPhrase({ source: "person", name: "Ada Okafor" })).toBe("by Ada Okafor");
    expect(actorPhrase({ source: "person", name: null })).toBe("by a person no longer in Allot");
    expect(actorPhrase({ source: "executor", name: null })).toBe("by the cluster's executor");
    expect(actorPhrase({ source: "demo_driver", name: null })).toBe("by the demo executor");
    expect(actorPhrase({ source: null, name: null })).toBe("(who was not recorded)");
  });
});

describe("healthChangeSentence", () => {
  it("ends with the reason when there is one", () => {
    expect(
      healthChangeSentence({
        node: 4,
        health: "draining",
        at: "14:05 UTC",
        actor: { source: "person", name: "Ada Okafor" },
        reason: "firmware update",
      }),
    ).toBe("Node 4 set draining by Ada Okafor at 14:05 UTC: firmware update");
  });

  it("ends with a full stop without a reason (the demo executor)", () => {
    expect(
      healthChangeSentence({
        node: 0,
        health: "healthy",
        at: "2026-12-05 23:10 UTC",
        actor: { source: "demo_driver", name: null },
        reason: null,
      }),
    ).toBe("Node 0 set healthy by the demo executor at 2026-12-05 23:10 UTC.");
  });
});

describe("cancelSentence", () => {
  it("says who cancelled and why", () => {
    expect(
      cancelSentence({
        byName: "Riley Chen",
        isByPerson: true,
        at: "14:05 UTC",
        reason: "wrong config",
      }),
    ).toBe("Cancelled by Riley Chen at 14:05 UTC: wrong config");
  });

  it("says the executor cancelled a mirrored job, without a reason", () => {
    expect(cancelSentence({ byName: null, isByPerson: false, at: "14:05 UTC", reason: null })).toBe(
      "Cancelled by the cluster's executor at 14:05 UTC.",
    );
  });
});

describe("stateAgePhrase", () => {
  const NOW_SEC = 1_796_000_000; // 2026-11-30 00:53 UTC
  it("gives the exact time in the state when the change is recorded", () => {
    expect(
      stateAgePhrase({ healthChangedSec: NOW_SEC - 38_280, isUnchangedOnRecord: false }, NOW_SEC),
    ).toBe("10 h 38 min");
  });

  it("gives a node with no change on record a lower bound from when records began", () => {
    expect(
      stateAgePhrase(
        { healthChangedSec: NOW_SEC - 30 * 86_400 - 7200, isUnchangedOnRecord: true },
        NOW_SEC,
      ),
    ).toBe("at least 30 d 2 h: no change since records began, 2026-10-30");
  });
});
