// Replicas that start at once on one database: each migrates (Prisma's schema engine already
// serialises that with its own advisory lock, 72707369) and, in demo mode, seeds the demo lab,
// which is not safe twice at once (both would see no jobs and store the history twice). The
// seed runs under this lock; the second replica waits, then finds the lab seeded.
import pg from "pg";

/** Session advisory lock of the start-up work (the first key of the cluster locks is 7731). */
const STARTUP_LOCK = [7732, 0] as const;

/**
 * Runs `work` while holding the start-up lock on the database at `databaseUrl`, on a
 * connection of its own, waiting for another process that holds it.
 */
export async function withStartupLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1, $2)", [...STARTUP_LOCK]);
    try {
      return await work();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1, $2)", [...STARTUP_LOCK]);
    }
  } finally {
    await client.end();
  }
}
