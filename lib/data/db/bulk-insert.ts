// Bulk inserts for large, trusted row sets (the demo history, roll-up rebuilds): each chunk is
// one statement with one JSON parameter that Postgres unpacks (jsonb_to_recordset), several
// times faster than createMany's thousands of bound parameters. Columns are listed in code,
// never from input; values only travel in the JSON.
import type { Prisma } from "../../generated/prisma/client";

/** A column and its SQL type (`text`, `integer`, `double precision`, `boolean`, `timestamp(3)`, `jsonb`, or an enum's quoted name). */
export type BulkColumn = { name: string; type: string };

const CHUNK_ROWS = 5000;

/**
 * Inserts `rows` (objects keyed by column name; Dates as ISO strings or Date objects) into
 * `table` in chunks, inside the caller's transaction. Returns the number of rows inserted.
 *
 * @example await insertRows(tx, "node_health_changes", [{ name: "id", type: "text" }, ...], rows)
 */
export async function insertRows(
  tx: Prisma.TransactionClient,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly Record<string, unknown>[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const quoted = columns.map((column) => `"${column.name}"`).join(", ");
  const record = columns
    .map((column) => `"${column.name}" ${isEnum(column.type) ? "text" : column.type}`)
    .join(", ");
  const select = columns
    .map((column) =>
      isEnum(column.type) ? `x."${column.name}"::${column.type}` : `x."${column.name}"`,
    )
    .join(", ");
  const sql =
    `INSERT INTO "${table}" (${quoted}) SELECT ${select} ` +
    `FROM jsonb_to_recordset($1::jsonb) AS x(${record})`;
  let inserted = 0;
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const chunk = rows.slice(start, start + CHUNK_ROWS);
    inserted += await tx.$executeRawUnsafe(sql, JSON.stringify(chunk));
  }
  return inserted;
}

function isEnum(type: string): boolean {
  return type.startsWith('"');
}
