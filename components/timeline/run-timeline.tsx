import type { RunView } from "@/lib/data/job-views";
import { plural } from "@/lib/engine/explain-words";
import { formatSpan, liveTimeFormatter } from "@/lib/format";

/**
 * A job's runs on one time axis, from submission to now (or its end); protected part darker.
 * Times of today show the clock alone, any other day's their date too (`nowSec` is today).
 */
export function RunTimeline({
  runs,
  fromSec,
  toSec,
  nowSec,
}: {
  runs: RunView[];
  fromSec: number;
  toSec: number;
  nowSec: number;
}) {
  const spanSec = Math.max(1, toSec - fromSec);
  const clock = liveTimeFormatter(nowSec);
  const left = (sec: number) => `${(100 * (sec - fromSec)) / spanSec}%`;
  return (
    <figure className="timeline" aria-label="Runs of this job over time">
      {runs.map((run, index) => {
        const endSec = run.endSec ?? toSec;
        const widthSec = Math.max(0, endSec - run.startSec);
        const protectedSec = Math.max(0, Math.min(run.protectedUntilSec, endSec) - run.startSec);
        const label =
          `Run ${index + 1}: ${plural(run.gpus, "GPU", "GPUs")}, ${clock(run.startSec)}–` +
          `${run.endSec === null ? "now" : clock(run.endSec)}` +
          `${run.endReason ? ` (${run.endReason.replace("_", " ")})` : " (running)"}`;
        return (
          <div key={run.id} className="timeline-row">
            <div
              className="timeline-run"
              style={{ left: left(run.startSec), width: `${(100 * widthSec) / spanSec}%` }}
              title={label}
            >
              {protectedSec > 0 ? (
                <span
                  className="timeline-protected"
                  style={{ width: `${(100 * protectedSec) / Math.max(1, widthSec)}%` }}
                />
              ) : null}
              <span className="sr-only">{label}</span>
              <span aria-hidden="true">
                {plural(run.gpus, "GPU", "GPUs")} · {formatSpan(widthSec)}
              </span>
            </div>
          </div>
        );
      })}
      {runs.length === 0 ? <p className="muted timeline-axis">No run yet.</p> : null}
      <div className="timeline-axis" aria-hidden="true">
        <span>submitted {clock(fromSec)}</span>
        <span>{clock(toSec)}</span>
      </div>
    </figure>
  );
}
