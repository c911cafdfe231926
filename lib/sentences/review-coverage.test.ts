import { describe, expect, it } from "vitest";
import { reviewCoverageNote } from "./review-coverage";

const HOUR = 3600;
const november = Date.UTC(2026, 10, 1) / 1000;

describe("reviewCoverageNote", () => {
  it("says nothing when every hour gone by is recorded, or no cluster has any", () => {
    const full = {
      cluster: "b300",
      periodHours: 720,
      recordedHours: 720,
      firstRecordedSec: november,
    };
    expect(reviewCoverageNote([full])).toBeNull();
    expect(reviewCoverageNote([{ ...full, recordedHours: 0, firstRecordedSec: null }])).toBeNull();
  });

  it("names each partly recorded cluster with its hours and first record, and those with none", () => {
    const note = reviewCoverageNote([
      { cluster: "b200", periodHours: 720, recordedHours: 0, firstRecordedSec: null },
      {
        cluster: "b300",
        periodHours: 720,
        recordedHours: 300,
        firstRecordedSec: november + 420 * HOUR,
      },
      { cluster: "h100", periodHours: 720, recordedHours: 720, firstRecordedSec: november },
    ]);
    expect(note).toMatch(
      /^Usage is recorded for part of this period only: b300 300 of 720 hours \(from 2026-11-18 12:00 UTC\); b200 none\. Every figure here is read from the recorded hours/,
    );
    expect(note).not.toContain("h100");
  });

  it("names clusters recorded alike together", () => {
    const since = { periodHours: 720, recordedHours: 679, firstRecordedSec: november + 41 * HOUR };
    expect(
      reviewCoverageNote([
        { cluster: "b200", ...since },
        { cluster: "b300", ...since },
        { cluster: "h100", ...since, recordedHours: 600 },
      ]),
    ).toMatch(
      /^Usage is recorded for part of this period only: b200, b300 679 of 720 hours each \(from 2026-11-02 17:00 UTC\); h100 600 of 720 hours \(from 2026-11-02 17:00 UTC\)\. /,
    );
  });
});
