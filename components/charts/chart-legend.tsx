// A chart's key in HTML above its plot, wrapping onto as many lines as it needs. Names are in
// the text colour (series colours such as Okabe & Ito's orange are too light for text on
// white); each sits beside a symbol drawn as the chart draws its series.

/** How a series is drawn: a filled bar or area (plain or patterned), a line, or a marker. */
export type LegendMark =
  "square" | "hatch" | "dots" | "cross" | "line" | "dashed-line" | "diamond" | "triangle";

export type LegendEntry = { label: string; colour: string; mark: LegendMark; opacity?: number };

const TINT_OPACITY = 0.25;

/** The symbol of one entry in a 20 x 14 box: the box of a bar, a line or a marker. */
function MarkShape({ colour, mark, opacity = 1 }: Omit<LegendEntry, "label">) {
  const box = { x: 3, y: 1, width: 14, height: 12, stroke: colour };
  switch (mark) {
    case "square":
      return <rect {...box} fill={colour} fillOpacity={opacity} />;
    case "hatch":
      return (
        <>
          <rect {...box} fill={colour} fillOpacity={TINT_OPACITY} />
          <path d="M3 7L9 1M3 13L15 1M9 13L17 5" stroke={colour} strokeWidth={2} />
        </>
      );
    case "dots":
      return (
        <>
          <rect {...box} fill={colour} fillOpacity={TINT_OPACITY} />
          {[5.5, 10, 14.5].flatMap((x) =>
            [4, 9.5].map((y) => <circle key={`${x}-${y}`} cx={x} cy={y} r={1.4} fill={colour} />),
          )}
        </>
      );
    case "cross":
      return (
        <>
          <rect {...box} fill={colour} fillOpacity={TINT_OPACITY} />
          <path d="M3 1L15 13M9 1L17 9M3 7L9 13M17 1L5 13M11 1L3 9M17 7L11 13" stroke={colour} />
        </>
      );
    case "line":
    case "dashed-line":
      return (
        <line
          x1={0}
          y1={7}
          x2={20}
          y2={7}
          stroke={colour}
          strokeWidth={2}
          strokeDasharray={mark === "dashed-line" ? "6 3" : undefined}
        />
      );
    case "diamond":
      return <polygon points="10,1 16,7 10,13 4,7" fill={colour} />;
    case "triangle":
      return <polygon points="10,1 16,13 4,13" fill={colour} />;
  }
}

/** The key of a chart: one entry per series, in the order they are drawn. */
export function ChartLegend({ entries }: { entries: readonly LegendEntry[] }) {
  return (
    <ul className="chart-legend">
      {entries.map(({ label, ...symbol }) => (
        <li key={label}>
          <svg width={20} height={14} viewBox="0 0 20 14" aria-hidden="true">
            <MarkShape {...symbol} />
          </svg>
          {label}
        </li>
      ))}
    </ul>
  );
}
