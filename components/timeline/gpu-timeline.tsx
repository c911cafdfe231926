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
import { formatSimMoment } from "@/lib/format";
import type { TimelineData } from "@/lib/simulations/timeline-format";
import { paintTimeline } from "./paint-timeline";
import { describeRun, RunTooltip, type Hover } from "./run-tooltip";
import {
  findSegmentAt,
  indexTimeline,
  layoutBars,
  panWindow,
  runOrder,
  stepBarIndex,
  zoomWindow,
  type TimelineView,
} from "./timeline-layout";

const GUTTER_PX = 64;
const MAX_HEIGHT_PX = 420;
const MAX_ROW_PX = 14;
/** A pointer that moves less than this between down and up taps rather than drags. */
const TAP_SLOP_PX = 5;

type Range = { startSec: number; endSec: number };
/** A pointer pressed on the canvas: where, the window then, and whether it moved into a drag. */
type Drag = { x: number; y: number; range: Range; isDragging: boolean };

/** Drawing size of one GPU row: whole pixels while they fit, else rows share pixels. */
function rowHeightFor(rows: number): number {
  return rows * MAX_ROW_PX <= MAX_HEIGHT_PX ? MAX_ROW_PX : Math.max(MAX_HEIGHT_PX / rows, 0.25);
}

/**
 * One scheduler's GPU timeline on a canvas: a row per GPU, a bar per run coloured by budget,
 * hatched where the run was unallocated, with a vermillion edge where it was preempted. Wheel or
 * buttons zoom, drag or arrow keys pan; hovering or tapping a bar, or stepping to it with ↓ ↑,
 * names the run. `axisHorizonSec` (default:
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
  const pinnedSegment = hover?.isPinned ? hover.segment : null;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const dragRef = useRef<Drag | null>(null);
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
  const runs = useMemo(() => runOrder(bars), [bars]);

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
    // Only pinned details mark their run: repainting on every hover would cost a large timeline.
    const frame = requestAnimationFrame(() =>
      paintTimeline(canvas, data, bars, colours, {
        widthPx,
        heightPx,
        gutterPx: GUTTER_PX,
        rowHeightPx,
        gpusPerNode: index.gpusPerNode,
        window: range,
        runEndSec: data.horizonSec,
        markedSegment: pinnedSegment,
      }),
    );
    return () => cancelAnimationFrame(frame);
  }, [
    data,
    bars,
    colours,
    widthPx,
    heightPx,
    rowHeightPx,
    index.gpusPerNode,
    range,
    isMeasured,
    pinnedSegment,
  ]);

  // Wheel zoom needs a non-passive listener to keep the page from scrolling.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    function onWheel(event: WheelEvent) {
      event.preventDefault();
      const x = event.offsetX - GUTTER_PX;
      setHover(null);
      setRange((current) => {
        const anchor = current.startSec + (x / plotWidthPx) * (current.endSec - current.startSec);
        return zoomWindow(current, event.deltaY > 0 ? 1.25 : 0.8, anchor, horizonSec);
      });
    }
    canvas.addEventListener("wheel", onWheel, { passive: false });
    return () => canvas.removeEventListener("wheel", onWheel);
  }, [plotWidthPx, horizonSec]);

  const spanSec = range.endSec - range.startSec;
  // A new window draws other bars: details of the old one would point at nothing.
  function moveWindow(next: (current: Range) => Range) {
    setHover(null);
    setRange(next);
  }
  const zoom = (factor: number) =>
    moveWindow((w) => zoomWindow(w, factor, (w.startSec + w.endSec) / 2, horizonSec));
  const pan = (fraction: number) =>
    moveWindow((w) => panWindow(w, fraction * (w.endSec - w.startSec), horizonSec));
  const reset = () => moveWindow(() => ({ startSec: 0, endSec: horizonSec }));

  /** Pins the details of the run `step` from the shown one (↓ next, ↑ previous), by start. */
  function stepRun(step: number) {
    const shownAt = hover ? runs.findIndex((barAt) => bars[barAt]!.segment === hover.segment) : -1;
    const at = stepBarIndex(runs.length, shownAt < 0 ? null : shownAt, step);
    const bar = at === null ? undefined : bars[runs[at]!];
    setHover(
      bar
        ? {
            segment: bar.segment,
            x: GUTTER_PX + bar.x + Math.min(bar.width / 2, 12),
            y: bar.y + bar.height / 2,
            isPinned: true,
          }
        : null,
    );
  }

  /** The run drawn at a point of the canvas (CSS px from its corner), or null. */
  function segmentAtPoint(xPx: number, yPx: number): number | null {
    const x = xPx - GUTTER_PX;
    if (x < 0) return null;
    const atSec = range.startSec + (x / plotWidthPx) * spanSec;
    return findSegmentAt(data, index, Math.floor(yPx / rowHeightPx), atSec);
  }

  function onKeyDown(event: KeyboardEvent) {
    const actions: Record<string, () => void> = {
      "+": () => zoom(0.5),
      "=": () => zoom(0.5),
      "-": () => zoom(2),
      ArrowLeft: () => pan(-0.25),
      ArrowRight: () => pan(0.25),
      Home: reset,
      "0": reset,
      ArrowDown: () => stepRun(1),
      ArrowUp: () => stepRun(-1),
      Escape: () => setHover(null),
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  function onPointerMove(event: PointerEvent<HTMLCanvasElement>) {
    const drag = dragRef.current;
    if (drag) {
      const isStill =
        Math.abs(event.clientX - drag.x) < TAP_SLOP_PX &&
        Math.abs(event.clientY - drag.y) < TAP_SLOP_PX;
      if (!drag.isDragging && isStill) return;
      drag.isDragging = true;
      const deltaSec = ((drag.x - event.clientX) / plotWidthPx) * spanSec;
      setHover(null);
      setRange(panWindow(drag.range, deltaSec, horizonSec));
      return;
    }
    if (event.pointerType !== "mouse") return;
    const { offsetX: x, offsetY: y } = event.nativeEvent;
    const segment = segmentAtPoint(x, y);
    // Pinned details stay until a click elsewhere, a tap off a run or Escape.
    setHover((shown) =>
      shown?.isPinned ? shown : segment === null ? null : { segment, x, y, isPinned: false },
    );
  }

  // A tap (down and up without a drag) pins the run's details, or clears them off a run.
  function onPointerUp(event: PointerEvent<HTMLCanvasElement>) {
    const drag = dragRef.current;
    dragRef.current = null;
    if (!drag || drag.isDragging) return;
    const { offsetX: x, offsetY: y } = event.nativeEvent;
    const segment = segmentAtPoint(x, y);
    setHover(segment === null ? null : { segment, x, y, isPinned: true });
  }

  const clusterSpec = data.clusters[cluster];
  return (
    <figure className="timeline" aria-label={`GPU timeline, ${label}`}>
      <div className="timeline-toolbar">
        {data.clusters.length > 1 ? (
          <label>
            Cluster{" "}
            <select
              value={cluster}
              onChange={(event) => {
                setHover(null);
                setCluster(Number(event.target.value));
              }}
            >
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
          aria-label={`${label}: ${bars.length} runs drawn on ${index.rows} GPUs. Left and right arrows pan, + and − zoom, 0 shows the whole run; down and up arrows step through the runs' details, Escape hides them.`}
          data-bar-count={bars.length}
          data-testid={`timeline-${data.scheduler}`}
          style={{ width: `${widthPx}px`, height: `${heightPx}px` }}
          onKeyDown={onKeyDown}
          onPointerDown={(event) => {
            dragRef.current = { x: event.clientX, y: event.clientY, range, isDragging: false };
            event.currentTarget.setPointerCapture(event.pointerId);
          }}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            dragRef.current = null;
          }}
          onPointerMove={onPointerMove}
          onPointerLeave={() => setHover((shown) => (shown?.isPinned ? shown : null))}
        />
        {hover ? <RunTooltip data={data} hover={hover} boxWidthPx={widthPx} /> : null}
        {/* Always there, so that a screen reader hears the details a key or a tap pins. */}
        <p className="sr-only" role="status">
          {hover?.isPinned ? describeRun(data, hover.segment) : ""}
        </p>
      </div>
    </figure>
  );
}
