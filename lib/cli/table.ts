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
