// Paints laid-out bars on a canvas: batched by colour (one path per budget), then hatching over
// unallocated runs and a vermillion edge on preempted ones, then the axes.
import { PREEMPTED_COLOUR } from "@/components/charts/palette";
import { formatSimMoment } from "@/lib/format";
import { SEG, SEGMENT_STRIDE, type TimelineData } from "@/lib/simulations/timeline-format";
import type { Bar } from "./timeline-layout";

export type PaintOptions = {
  widthPx: number;
  heightPx: number;
  gutterPx: number;
  rowHeightPx: number;
  gpusPerNode: number;
  window: { startSec: number; endSec: number };
  /** Where this run's own time ends; past it (on an axis shared with a longer run) is shaded. */
  runEndSec: number;
  /** The run whose details are pinned, outlined on each of its GPU rows; null for none. */
  markedSegment: number | null;
};

const AXIS_COLOUR = "#57606a";
const GRID_COLOUR = "rgba(27, 31, 36, 0.08)";
const AFTER_END_COLOUR = "#e6e9ed";
const MARK_COLOUR = "#000000";
const PREEMPTED_CODE = 1;
const MIN_EDGE_BAR_PX = 4;

function hatchPattern(context: CanvasRenderingContext2D): CanvasPattern | null {
  const tile = document.createElement("canvas");
  tile.width = 6;
  tile.height = 6;
  const tileContext = tile.getContext("2d");
  if (!tileContext) return null;
  tileContext.strokeStyle = "rgba(255, 255, 255, 0.85)";
  tileContext.lineWidth = 1.5;
  tileContext.beginPath();
  tileContext.moveTo(0, 6);
  tileContext.lineTo(6, 0);
  tileContext.stroke();
  return context.createPattern(tile, "repeat");
}

/** Tick step (seconds) giving about one tick per 110 px. */
function tickStepSec(spanSec: number, widthPx: number): number {
  const steps = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 2 * 86_400, 7 * 86_400];
  const wanted = (spanSec / widthPx) * 110;
  return steps.find((step) => step >= wanted) ?? 14 * 86_400;
}

function tickLabel(sec: number, stepSec: number): string {
  return stepSec >= 86_400 ? `day ${Math.floor(sec / 86_400) + 1}` : formatSimMoment(sec);
}

/** Shades the part of the window after the run's own end, with a line and a label at the end. */
function paintAfterRunEnd(context: CanvasRenderingContext2D, options: PaintOptions): void {
  const { startSec, endSec } = options.window;
  if (options.runEndSec >= endSec) return;
  const plotWidthPx = options.widthPx - options.gutterPx;
  const fromSec = Math.max(startSec, options.runEndSec);
  const xPx = options.gutterPx + ((fromSec - startSec) / (endSec - startSec)) * plotWidthPx;
  context.fillStyle = AFTER_END_COLOUR;
  context.fillRect(xPx, 0, options.widthPx - xPx, options.heightPx);
  if (options.runEndSec < startSec) return;
  context.fillStyle = AXIS_COLOUR;
  context.fillRect(xPx, 0, 1, options.heightPx);
  context.font = "11px system-ui, sans-serif";
  context.textBaseline = "top";
  context.fillText("run ends", xPx + 4, 3);
}

/** Outlines the bars of the marked run, black inside white so it shows on every colour. */
function paintMark(
  context: CanvasRenderingContext2D,
  bars: readonly Bar[],
  segment: number | null,
): void {
  if (segment === null) return;
  const marked = bars.filter((bar) => bar.segment === segment);
  for (const [colour, widthPx] of [
    ["#ffffff", 4],
    [MARK_COLOUR, 2],
  ] as const) {
    context.strokeStyle = colour;
    context.lineWidth = widthPx;
    for (const bar of marked) {
      context.strokeRect(bar.x + 1, bar.y + 1, Math.max(1, bar.width - 2), bar.height - 2);
    }
  }
}

/** Draws one frame; the canvas is sized for the device pixel ratio. */
export function paintTimeline(
  canvas: HTMLCanvasElement,
  data: TimelineData,
  bars: readonly Bar[],
  colours: readonly string[],
  options: PaintOptions,
): void {
  const ratio = globalThis.devicePixelRatio || 1;
  const axisPx = 18;
  canvas.width = Math.round(options.widthPx * ratio);
  canvas.height = Math.round((options.heightPx + axisPx) * ratio);
  canvas.style.height = `${options.heightPx + axisPx}px`;
  const context = canvas.getContext("2d");
  if (!context) return;
  context.scale(ratio, ratio);
  context.clearRect(0, 0, options.widthPx, options.heightPx + axisPx);
  context.fillStyle = "#fbfcfd";
  context.fillRect(options.gutterPx, 0, options.widthPx - options.gutterPx, options.heightPx);
  paintAfterRunEnd(context, options);

  const byColour = new Map<number, Bar[]>();
  for (const bar of bars) {
    const budget = data.segments[bar.segment * SEGMENT_STRIDE + SEG.budget] ?? 0;
    const list = byColour.get(budget) ?? [];
    list.push(bar);
    byColour.set(budget, list);
  }
  context.save();
  context.translate(options.gutterPx, 0);
  const gap = options.rowHeightPx >= 4 ? 1 : 0;
  for (const [budget, list] of byColour) {
    context.fillStyle = colours[budget] ?? "#888888";
    context.beginPath();
    for (const bar of list) context.rect(bar.x, bar.y, Math.max(1, bar.width), bar.height - gap);
    context.fill();
  }
  const hatch = hatchPattern(context);
  context.beginPath();
  const edges: Bar[] = [];
  for (const bar of bars) {
    const flags = data.segments[bar.segment * SEGMENT_STRIDE + SEG.flags] ?? 0;
    if ((flags & 1) === 0) context.rect(bar.x, bar.y, Math.max(1, bar.width), bar.height - gap);
    const endSec = data.segments[bar.segment * SEGMENT_STRIDE + SEG.endSec] ?? 0;
    // The edge needs a few pixels to read as an edge; zoomed out, narrow runs show none.
    const isEdgeVisible = bar.width >= MIN_EDGE_BAR_PX && endSec <= options.window.endSec;
    if (((flags >> 1) & 3) === PREEMPTED_CODE && isEdgeVisible) edges.push(bar);
  }
  if (hatch) {
    context.fillStyle = hatch;
    context.fill();
  }
  context.fillStyle = PREEMPTED_COLOUR;
  context.beginPath();
  for (const bar of edges) {
    const edgePx = bar.width >= 8 ? 2 : 1;
    context.rect(bar.x + bar.width - edgePx, bar.y, edgePx, Math.max(1, bar.height - gap));
  }
  context.fill();
  paintMark(context, bars, options.markedSegment);
  context.restore();

  // Node separators and labels in the gutter.
  context.font = "11px system-ui, sans-serif";
  context.fillStyle = AXIS_COLOUR;
  context.textBaseline = "middle";
  const nodePx = options.gpusPerNode * options.rowHeightPx;
  const labelEvery = Math.max(1, Math.ceil(14 / Math.max(nodePx, 0.01)));
  const nodes = Math.round(options.heightPx / Math.max(nodePx, 0.01));
  for (let node = 0; node < nodes; node += labelEvery) {
    const y = node * nodePx;
    context.fillText(`node ${node}`, 4, y + Math.min(nodePx * labelEvery, 14) / 2);
    context.fillStyle = GRID_COLOUR;
    context.fillRect(options.gutterPx, y, options.widthPx - options.gutterPx, 1);
    context.fillStyle = AXIS_COLOUR;
  }

  // Time axis under the plot.
  const plotWidth = options.widthPx - options.gutterPx;
  const spanSec = options.window.endSec - options.window.startSec;
  const stepSec = tickStepSec(spanSec, plotWidth);
  context.textBaseline = "top";
  for (
    let sec = Math.ceil(options.window.startSec / stepSec) * stepSec;
    sec <= options.window.endSec;
    sec += stepSec
  ) {
    const x = options.gutterPx + ((sec - options.window.startSec) / spanSec) * plotWidth;
    context.fillStyle = GRID_COLOUR;
    context.fillRect(x, 0, 1, options.heightPx);
    context.fillStyle = AXIS_COLOUR;
    context.fillText(tickLabel(sec, stepSec), x + 3, options.heightPx + 3);
  }
}
