// What the review's charts share: one colour and fill pattern per cluster, the SVG patterns
// behind hatched and dotted fills, a row's height and a budget's name as the charts show it.
import type { ReviewRow } from "@/lib/reports/review-table";
import { OKABE_ITO } from "@/components/charts/palette";

/** One colour and one fill pattern per cluster, so bars differ without colour too. */
export const CLUSTER_COLOURS = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.reddishPurple,
  OKABE_ITO.skyBlue,
];
export const CLUSTER_PATTERNS = ["solid", "hatch", "dots", "cross"] as const;
/** The legend's symbol of each pattern. */
export const PATTERN_MARKS = {
  solid: "square",
  hatch: "hatch",
  dots: "dots",
  cross: "cross",
} as const;
/** Height of one bar's row in the horizontal bar charts. */
export const ROW_PX = 26;

/** A budget as the charts name it: its path, or the root's name with "(all)". */
export const displayName = (row: ReviewRow) => (row.path === "" ? `${row.name} (all)` : row.path);

/** Patterns for fills: hatching and dots in a colour, on a pale tint of it. */
export function Patterns({ prefix, colours }: { prefix: string; colours: readonly string[] }) {
  return (
    <defs>
      {colours.map((colour, index) => (
        <g key={colour}>
          <pattern
            id={`${prefix}-hatch-${index}`}
            patternUnits="userSpaceOnUse"
            width="6"
            height="6"
            patternTransform="rotate(45)"
          >
            <rect width="6" height="6" fill={colour} fillOpacity="0.25" />
            <line x1="0" y1="0" x2="0" y2="6" stroke={colour} strokeWidth="3" />
          </pattern>
          <pattern
            id={`${prefix}-dots-${index}`}
            patternUnits="userSpaceOnUse"
            width="5"
            height="5"
          >
            <rect width="5" height="5" fill={colour} fillOpacity="0.25" />
            <circle cx="2.5" cy="2.5" r="1.6" fill={colour} />
          </pattern>
          <pattern
            id={`${prefix}-cross-${index}`}
            patternUnits="userSpaceOnUse"
            width="6"
            height="6"
          >
            <rect width="6" height="6" fill={colour} fillOpacity="0.25" />
            <path d="M0 0L6 6M6 0L0 6" stroke={colour} strokeWidth="1.4" />
          </pattern>
        </g>
      ))}
    </defs>
  );
}

/** The fill of cluster `index`'s bars: its colour, or its pattern. */
export function fillOf(prefix: string, pattern: (typeof CLUSTER_PATTERNS)[number], index: number) {
  return pattern === "solid" ? CLUSTER_COLOURS[index]! : `url(#${prefix}-${pattern}-${index})`;
}
