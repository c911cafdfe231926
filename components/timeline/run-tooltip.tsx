// The details of one run of the GPU timeline, beside it on the canvas.
import type { CSSProperties } from "react";
import { formatRatioPair } from "@/lib/engine/ratio-pair";
import { formatSimMoment } from "@/lib/format";
import {
  END_REASONS,
  SEG,
  SEGMENT_STRIDE,
  type TimelineComparison,
  type TimelineData,
} from "@/lib/simulations/timeline-format";

/** Below this width the tooltip spans the box under the run rather than sitting beside it. */
const NARROW_BOX_PX = 520;

/**
 * The run whose details show, at a point of the canvas (CSS px); pinned by a click, a tap or a
 * key, it stays when the pointer moves on or leaves.
 */
export type Hover = { segment: number; x: number; y: number; isPinned: boolean };

/** Beside the run, on whichever side has more room; in a narrow box, across it under the run. */
function tooltipPlacement(hover: Hover, boxWidthPx: number): CSSProperties {
  const topPx = hover.y + 10;
  if (boxWidthPx < NARROW_BOX_PX) return { left: 0, right: 0, top: topPx, maxWidth: "none" };
  return hover.x > boxWidthPx / 2
    ? { right: boxWidthPx - hover.x + 14, top: topPx }
    : { left: hover.x + 14, top: topPx };
}

/** The run's details as one sentence, for a screen reader (the tooltip is drawn for eyes). */
export function describeRun(data: TimelineData, segment: number): string {
  const at = segment * SEGMENT_STRIDE;
  const n = (offset: number) => data.segments[at + offset] ?? 0;
  const flags = n(SEG.flags);
  const endReason = END_REASONS[(flags >> 1) & 3] ?? "completed";
  const reason = n(SEG.reason) >= 0 ? data.reasons[n(SEG.reason)] : undefined;
  const charge = flags & 1 ? "allocated" : "unallocated";
  const when = `${formatSimMoment(n(SEG.startSec))} to ${formatSimMoment(n(SEG.endSec))}`;
  return (
    `Job ${data.jobs[n(SEG.job)]}, ${data.budgets[n(SEG.budget)]}, ${when} on node ` +
    `${n(SEG.node)}, ${charge}, ${endReason}.${reason ? ` ${reason}` : ""}`
  );
}

export function RunTooltip({
  data,
  hover,
  boxWidthPx,
}: {
  data: TimelineData;
  hover: Hover;
  boxWidthPx: number;
}) {
  const at = hover.segment * SEGMENT_STRIDE;
  const n = (offset: number) => data.segments[at + offset] ?? 0;
  const flags = n(SEG.flags);
  const endReason = END_REASONS[(flags >> 1) & 3] ?? "completed";
  const reason = n(SEG.reason) >= 0 ? data.reasons[n(SEG.reason)] : undefined;
  const comparisonAt = n(SEG.reason) >= 0 ? (data.comparisonOfReason?.[n(SEG.reason)] ?? -1) : -1;
  const comparison = comparisonAt >= 0 ? data.comparisons?.[comparisonAt] : undefined;
  return (
    <div className="timeline-tooltip" role="tooltip" style={tooltipPlacement(hover, boxWidthPx)}>
      <strong>Job {data.jobs[n(SEG.job)]}</strong> · {data.budgets[n(SEG.budget)]}
      <br />
      {formatSimMoment(n(SEG.startSec))} → {formatSimMoment(n(SEG.endSec))} on node {n(SEG.node)}
      <br />
      {flags & 1 ? "Allocated (charged to its budget)" : "Unallocated (free, preemptible)"} ·{" "}
      {endReason}
      {comparison ? <DecidingComparison rows={comparison} /> : null}
      {reason ? <span className="timeline-reason">{reason}</span> : null}
    </div>
  );
}

/**
 * Where the two budgets' paths part, then the leaves, side by side with their usage of share
 * (with decimals when whole percentages would read the same, as in the sentence below it).
 */
function DecidingComparison({ rows }: { rows: TimelineComparison }) {
  return (
    <table className="timeline-comparison">
      <caption>The comparison that decided: lower usage of share ranks first</caption>
      <thead>
        <tr>
          <th scope="col"></th>
          <th scope="col">preempting</th>
          <th scope="col">preempted</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => {
          const ratios = formatRatioPair(row.higherRatio, row.lowerRatio);
          return (
            <tr key={i}>
              <th scope="row">
                {i === 0 && rows.length > 1 ? "where the branches part" : "budgets"}
              </th>
              <td>
                {row.higher} <span className="timeline-ratio">{ratios.higher}</span>
              </td>
              <td>
                {row.lower} <span className="timeline-ratio">{ratios.lower}</span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
