// CSV as RFC 4180 writes it: comma-separated, CRLF line ends, fields quoted when needed.

/** A cell: text, a number, or nothing (an empty field). */
export type CsvCell = string | number | null | undefined;

/**
 * One field: quoted (with inner quotes doubled) when it holds a comma, quote or line break,
 * or when it starts with a character a spreadsheet would read as a formula (=, +, -, @, tab,
 * carriage return): those are prefixed with an apostrophe. Non-finite numbers are empty.
 *
 * @example csvField('say "hi", then go') // '"say ""hi"", then go"'
 */
export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return "";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : "";
  const text = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A whole CSV document: the header, then one line per row, each line ended by CRLF.
 *
 * @example toCsv(["a", "b"], [[1, "x,y"]]) // 'a,b\r\n1,"x,y"\r\n'
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(",")}\r\n`).join("");
}
