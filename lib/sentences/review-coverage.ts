// The review's note on a period its roll-ups only partly cover (docs/fulfilment.md): hours
// before Allot ran, or with no node in service, have no roll-up and count for nothing.
import { formatDateTime, formatInteger } from "../format";

/** Of a period's whole hours gone by, how many a cluster's roll-ups cover (docs/fulfilment.md). */
export type ClusterCoverage = {
  cluster: string;
  /** Whole hours of the period before now (before its end, for an ended period). */
  periodHours: number;
  /** Those of them with a roll-up: the hours every figure of the review is read from. */
  recordedHours: number;
  /** The first recorded hour's start, epoch seconds; null when none is. */
  firstRecordedSec: number | null;
};

/**
 * What the review says when some cluster's roll-ups miss hours of the period, or null when
 * every hour gone by is recorded. Clusters with no hour recorded at all are named apart.
 *
 * @example reviewCoverageNote([{ cluster: "b300", periodHours: 720, recordedHours: 300, firstRecordedSec: 1_763_442_000 }])
 * // "Usage is recorded for part of this period only: b300 300 of 720 hours (from 2025-11-18 05:00 UTC). ..."
 */
export function reviewCoverageNote(coverage: readonly ClusterCoverage[]): string | null {
  const partial = coverage.filter(
    (count) => count.recordedHours > 0 && count.recordedHours < count.periodHours,
  );
  const none = coverage.filter((count) => count.recordedHours === 0 && count.periodHours > 0);
  if (partial.length === 0 && (none.length === 0 || none.length === coverage.length)) return null;
  // Clusters recorded alike (every cluster since Allot started, say) share one phrase.
  const alike = new Map<string, ClusterCoverage[]>();
  for (const count of partial) {
    const key = `${count.recordedHours}:${count.periodHours}:${count.firstRecordedSec}`;
    alike.set(key, [...(alike.get(key) ?? []), count]);
  }
  const parts = [...alike.values()].map((counts) => {
    const [count] = counts as [ClusterCoverage];
    const names = counts.map((each) => each.cluster).join(", ");
    const hours = `${formatInteger(count.recordedHours)} of ${formatInteger(count.periodHours)} hours`;
    const from =
      count.firstRecordedSec === null ? "" : ` (from ${formatDateTime(count.firstRecordedSec)})`;
    return `${names} ${hours}${counts.length > 1 ? " each" : ""}${from}`;
  });
  if (none.length > 0) parts.push(`${none.map((count) => count.cluster).join(", ")} none`);
  return (
    `Usage is recorded for part of this period only: ${parts.join("; ")}. ` +
    "Every figure here is read from the recorded hours; an hour without a record (before Allot " +
    "ran, or with no node in service) counts as neither entitled nor received, and the daily " +
    "chart leaves a gap for a day without one."
  );
}
