// Whether a database is a real site's, for the commands that would mix the demo lab into it
// (db:seed) or wipe it (db:reset): scripts/db.ts.
import pg from "pg";
import { DEMO_DOMAIN } from "../lib/demo/lab-org";

/**
 * Accounts the demo seed did not make (its people all have addresses at DEMO_DOMAIN): people
 * who signed in to a real site. 0 on an empty database, before migrations too.
 */
export async function countSiteAccounts(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM users WHERE email NOT LIKE $1`,
      [`%@${DEMO_DOMAIN}`],
    );
    return found.rows[0]?.n ?? 0;
  } catch (error) {
    if ((error as { code?: string }).code === "42P01") return 0; // no users table yet
    throw error;
  } finally {
    await client.end();
  }
}
