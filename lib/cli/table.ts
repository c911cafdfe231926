/** Column alignment: text left, numbers right. */
export type Align = "left" | "right";

/**
 * Formats rows as a plain-text table with a header and a rule, columns padded to fit.
 *
 * @example formatTable(["a", "b"], [["x", "1"]], ["left", "right"])
 */
export function formatTable(headers: string[], rows: string[][], align: Align[] = []): string {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) =>
        align[i] === "right" ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join("  ")
      .trimEnd();
  return (
    [line(headers), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n") +
    "\n"
  );
}

/** A ratio as a percentage with one decimal: 0.9731 -> "97.3%"; null -> "-". */
export function formatPercent(ratio: number | null): string {
  return ratio === null ? "-" : `${(ratio * 100).toFixed(1)}%`;
}

/** A number with thousands separators and fixed decimals (no locale dependence). */
export function formatNumber(value: number, decimals = 0): string {
  const [whole, fraction] = Math.abs(value).toFixed(decimals).split(".");
  const grouped = (whole ?? "0").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${value < 0 ? "-" : ""}${grouped}${fraction ? `.${fraction}` : ""}`;
}

/** Node indexes as SLURM writes a node list: [0, 1, 2, 5] -> "0-2,5". */
export function formatNodeList(nodes: number[]): string {
  const sorted = [...nodes].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    ranges.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return ranges.join(",");
}
