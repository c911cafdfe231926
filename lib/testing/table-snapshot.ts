// Database tests: a fingerprint of every table (row count and an md5 of its rows as text, in
// order), to prove that a refused request wrote nothing. One round trip for all tables. A
// token's lastUsedAt is left out: using a token is no write of the request's (and it is
// written at most once a minute, whatever the answer).
import type { Db } from "../data/db/client";

/** Table name -> "rows:md5". Two equal snapshots mean no row was added, changed or removed. */
export type TableSnapshot = Record<string, string>;

/** Columns that bookkeeping, not the request, may change. */
const IGNORED_COLUMNS: Record<string, string[]> = { api_tokens: ["lastUsedAt"] };

/** Builds the snapshot query once from the tables of the public schema. */
export async function createTableSnapshotter(db: Db): Promise<() => Promise<TableSnapshot>> {
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  if (tables.length === 0) throw new Error("No tables to snapshot: is the database migrated?");
  const sql = tables
    .map(({ name }) => {
      const quoted = `"${name.replaceAll('"', '""')}"`;
      const label = name.replaceAll("'", "''");
      const row = IGNORED_COLUMNS[name]
        ? `(to_jsonb(t) - ${IGNORED_COLUMNS[name].map((column) => `'${column}'`).join(" - ")})::text`
        : "t::text";
      return `SELECT '${label}' AS name, count(*)::int AS rows,
        md5(coalesce(string_agg(${row}, E'\\n' ORDER BY ${row}), '')) AS hash FROM ${quoted} t`;
    })
    .join("\nUNION ALL\n");
  return async () => {
    const rows = await db.$queryRawUnsafe<{ name: string; rows: number; hash: string }[]>(sql);
    return Object.fromEntries(rows.map((row) => [row.name, `${row.rows}:${row.hash}`]));
  };
}
