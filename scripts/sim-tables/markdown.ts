/** Column alignment in a markdown table: text left, numbers right. */
export type MarkdownAlign = "left" | "right";

/**
 * Formats rows as a markdown table padded the way Prettier pads one, so that it can be pasted
 * into a document that `prettier --check` guards.
 *
 * @example formatMarkdownTable(["a", "b"], [["x", "1"]], ["left", "right"])
 * // "| a   |   b |\n| --- | --: |\n| x   |   1 |\n"
 */
export function formatMarkdownTable(
  headers: string[],
  rows: string[][],
  align: MarkdownAlign[] = [],
): string {
  const widths = headers.map((header, i) =>
    Math.max(3, header.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: string[]): string =>
    `| ${cells
      .map((cell, i) =>
        align[i] === "right" ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join(" | ")} |`;
  const rule = widths.map((width, i) =>
    align[i] === "right" ? `${"-".repeat(width - 1)}:` : "-".repeat(width),
  );
  return [line(headers), line(rule), ...rows.map(line)].join("\n") + "\n";
}
