"use client";

import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from "react";
import { budgetColours, programKey } from "@/components/charts/palette";
import { formatRatioPair } from "@/lib/engine/ratio-pair";
import { formatSimMoment } from "@/lib/format";
import {
  END_REASONS,
  SEG,
  SEGMENT_STRIDE,
  type TimelineComparison,
  type TimelineData,
} from "@/lib/simulations/timeline-format";
import { paintTimeline } from "./paint-timeline";
import {
  findSegmentAt,
  indexTimeline,
  layoutBars,
  panWindow,
  zoomWindow,
  type TimelineView,
} from "./timeline-layout";

const GUTTER_PX = 64;
const MAX_HEIGHT_PX = 420;
const MAX_ROW_PX = 14;

type Range = { startSec: number; endSec: number };
type Hover = { segment: number; x: number; y: number };

/** Drawing size of one GPU row: whole pixels while they fit, else rows share pixels. */
function rowHeightFor(rows: number): number {
  return rows * MAX_ROW_PX <= MAX_HEIGHT_PX ? MAX_ROW_PX : Math.max(MAX_HEIGHT_PX / rows, 0.25);
}

/**
 * One scheduler's GPU timeline on a canvas: a row per GPU, a bar per run coloured by budget,
 * hatched where the run was unallocated, with a vermillion edge where it was preempted. Wheel or
 * buttons zoom, drag or arrow keys pan; hovering a bar names the run. `axisHorizonSec` (default:
 * the run's own horizon) is the end of the time axis, shared by the timelines drawn side by side
 * so that the same x is the same moment in each; time past the run's own end is shaded.
 */
export function GpuTimeline({
  data,
  label,
  axisHorizonSec,
}: {
  data: TimelineData;
  label: string;
  axisHorizonSec?: number;
}) {
  const [cluster, setCluster] = useState(0);
  const horizonSec = Math.max(1, axisHorizonSec ?? data.horizonSec, data.horizonSec);
  const [range, setRange] = useState<Range>({ startSec: 0, endSec: horizonSec });
  // Null until the box is measured, so that a Philly-sized timeline is laid out and painted once,
  // at its real width, rather than first at a guess.
  const [measuredPx, setMeasuredPx] = useState<number | null>(null);
  const widthPx = measuredPx ?? 900;
  const [hover, setHover] = useState<Hover | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const dragRef = useRef<{ x: number; range: Range } | null>(null);
  const index = useMemo(() => indexTimeline(data, cluster), [data, cluster]);
  const colours = useMemo(() => budgetColours(data.budgets), [data.budgets]);
  const rowHeightPx = rowHeightFor(index.rows);
  const heightPx = Math.ceil(index.rows * rowHeightPx);
  const plotWidthPx = Math.max(100, widthPx - GUTTER_PX);
  const view: TimelineView = { ...range, widthPx: plotWidthPx, rowHeightPx };
  const isMeasured = measuredPx !== null;
  const bars = useMemo(
    () => (isMeasured ? layoutBars(data, index, view) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- view is rebuilt from these each render
    [data, index, range.startSec, range.endSec, plotWidthPx, rowHeightPx, isMeasured],
  );

  // Measured before the first paint, then kept up to date as the box resizes.
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    setMeasuredPx(Math.floor(box.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setMeasuredPx(Math.floor(entry.contentRect.width));
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !isMeasured) return;
    const frame = requestAnimationFrame(() =>
      paintTimeline(canvas, data, bars, colours, {
        widthPx,
        heightPx,
        gutterPx: GUTTER_PX,
        rowHeightPx,
        gpusPerNode: index.gpusPerNode,
        window: range,
        runEndSec: data.horizonSec,
      }),
    );
    return () => cancelAnimationFrame(frame);
  }, [data, bars, colours, widthPx, heightPx, rowHeightPx, index.gpusPerNode, range, isMeasured]);

  // Wheel zoom needs a non-passive listener to keep the page from scrolling.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    function onWheel(event: WheelEvent) {
      event.preventDefault();
      const x = event.offsetX - GUTTER_PX;
      setRange((current) => {
        const anchor = current.startSec + (x / plotWidthPx) * (current.endSec - current.startSec);
        return zoomWindow(current, event.deltaY > 0 ? 1.25 : 0.8, anchor, horizonSec);
      });
    }
    canvas.addEventListener("wheel", onWheel, { passive: false });
    return () => canvas.removeEventListener("wheel", onWheel);
  }, [plotWidthPx, horizonSec]);

  const spanSec = range.endSec - range.startSec;
  const zoom = (factor: number) =>
    setRange((w) => zoomWindow(w, factor, (w.startSec + w.endSec) / 2, horizonSec));
  const pan = (fraction: number) =>
    setRange((w) => panWindow(w, fraction * (w.endSec - w.startSec), horizonSec));
  const reset = () => setRange({ startSec: 0, endSec: horizonSec });

  function onKeyDown(event: KeyboardEvent) {
    const actions: Record<string, () => void> = {
      "+": () => zoom(0.5),
      "=": () => zoom(0.5),
      "-": () => zoom(2),
      ArrowLeft: () => pan(-0.25),
      ArrowRight: () => pan(0.25),
      Home: reset,
      "0": reset,
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  function onPointerMove(event: PointerEvent<HTMLCanvasElement>) {
    const x = event.nativeEvent.offsetX - GUTTER_PX;
    const y = event.nativeEvent.offsetY;
    const drag = dragRef.current;
    if (drag) {
      const deltaSec = ((drag.x - event.clientX) / plotWidthPx) * spanSec;
      setRange(panWindow(drag.range, deltaSec, horizonSec));
      return;
    }
    const atSec = range.startSec + (x / plotWidthPx) * spanSec;
    const segment = x < 0 ? null : findSegmentAt(data, index, Math.floor(y / rowHeightPx), atSec);
    setHover(segment === null ? null : { segment, x: event.nativeEvent.offsetX, y });
  }

  const clusterSpec = data.clusters[cluster];
  return (
    <figure className="timeline" aria-label={`GPU timeline, ${label}`}>
      <div className="timeline-toolbar">
        {data.clusters.length > 1 ? (
          <label>
            Cluster{" "}
            <select value={cluster} onChange={(event) => setCluster(Number(event.target.value))}>
              {data.clusters.map((c, i) => (
                <option key={c.name} value={i}>
                  {c.name} ({c.nodes * c.gpusPerNode} GPUs)
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="muted">
            {clusterSpec?.name}: {index.rows} GPUs
          </span>
        )}
        <span className="timeline-range">
          {formatSimMoment(range.startSec)} – {formatSimMoment(range.endSec)}
        </span>
        <span className="timeline-buttons">
          <button type="button" className="button" onClick={() => pan(-0.5)} aria-label="Earlier">
            ←
          </button>
          <button type="button" className="button" onClick={() => zoom(0.5)} aria-label="Zoom in">
            +
          </button>
          <button type="button" className="button" onClick={() => zoom(2)} aria-label="Zoom out">
            −
          </button>
          <button type="button" className="button" onClick={() => pan(0.5)} aria-label="Later">
            →
          </button>
          <button type="button" className="button" onClick={reset}>
            Whole run
          </button>
        </span>
      </div>
      <ul className="timeline-key" aria-label="Programs' colours">
        {programKey(data.budgets, colours).map(({ program, colour }) => (
          <li key={program}>
            <span className="timeline-swatch" style={{ background: colour }} aria-hidden="true" />
            {program}
          </li>
        ))}
      </ul>
      <div ref={boxRef} className="timeline-canvas-box">
        <canvas
          ref={canvasRef}
          tabIndex={0}
          role="img"
          aria-label={`${label}: ${bars.length} runs drawn on ${index.rows} GPUs. Arrow keys pan, + and − zoom, 0 shows the whole run.`}
          data-bar-count={bars.length}
          data-testid={`timeline-${data.scheduler}`}
          style={{ width: `${widthPx}px`, height: `${heightPx}px` }}
          onKeyDown={onKeyDown}
          onPointerDown={(event) => {
            dragRef.current = { x: event.clientX, range };
            event.currentTarget.setPointerCapture(event.pointerId);
          }}
          onPointerUp={() => {
            dragRef.current = null;
          }}
          onPointerMove={onPointerMove}
          onPointerLeave={() => setHover(null)}
        />
        {hover ? <RunTooltip data={data} hover={hover} /> : null}
      </div>
    </figure>
  );
}

function RunTooltip({ data, hover }: { data: TimelineData; hover: Hover }) {
  const at = hover.segment * SEGMENT_STRIDE;
  const n = (offset: number) => data.segments[at + offset] ?? 0;
  const flags = n(SEG.flags);
  const endReason = END_REASONS[(flags >> 1) & 3] ?? "completed";
  const reason = n(SEG.reason) >= 0 ? data.reasons[n(SEG.reason)] : undefined;
  const comparisonAt = n(SEG.reason) >= 0 ? (data.comparisonOfReason?.[n(SEG.reason)] ?? -1) : -1;
  const comparison = comparisonAt >= 0 ? data.comparisons?.[comparisonAt] : undefined;
  return (
    <div
      className="timeline-tooltip"
      role="status"
      style={{ left: hover.x + 14, top: hover.y + 10 }}
    >
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
