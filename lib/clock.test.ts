import { describe, expect, it } from "vitest";
import { liveSpeed, reanchor, simNowMs } from "./clock";

describe("app clock", () => {
  it("runs at the anchor's speed from the anchor on", () => {
    expect(simNowMs({ realMs: 0, simMs: 1000, speed: 60 }, 1000)).toBe(61_000);
  });

  it("never goes back when a replica's wall clock is behind the anchor", () => {
    expect(simNowMs({ realMs: 5000, simMs: 9000, speed: 2 }, 4000)).toBe(9000);
  });

  it("re-anchors at another speed without a jump", () => {
    const anchor = reanchor({ realMs: 0, simMs: 0, speed: 60 }, 10, 1);
    expect(anchor).toEqual({ realMs: 10, simMs: 600, speed: 1 });
    expect(reanchor(null, 42, 3)).toEqual({ realMs: 42, simMs: 42, speed: 3 });
  });

  it("reads the live speed: 60x in demo mode, off otherwise, refuses nonsense", () => {
    expect(liveSpeed({}, true)).toBe(60);
    expect(liveSpeed({}, false)).toBe(0);
    expect(liveSpeed({ ALLOT_LIVE_SPEED: "0" }, true)).toBe(0);
    expect(() => liveSpeed({ ALLOT_LIVE_SPEED: "fast" }, true)).toThrow(/ALLOT_LIVE_SPEED/);
  });
});
