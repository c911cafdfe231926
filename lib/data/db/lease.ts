// A lease in the database that one server process holds at a time
// (docs/decisions/091-replicas-and-a-lease.md). Taking and renewing are one statement, decided
// on the database's clock (now()), so replicas whose clocks disagree still agree on the holder.
import type { Db } from "./client";

/** A lease this holder has just taken or renewed. Times are the database's. */
export type HeldLease = {
  name: string;
  holder: string;
  /** When this holder took it; unchanged by renewals. */
  acquiredAt: Date;
  expiresAt: Date;
  /** The database's time when the statement ran. */
  dbNow: Date;
  /** The row before this statement: null when the lease never existed. */
  previous: { holder: string; expiresAt: Date } | null;
};

type TakeRow = Omit<HeldLease, "previous"> & {
  previousHolder: string | null;
  previousExpiresAt: Date | null;
};

/**
 * Takes lease `name` for `holder` when nobody holds it or its holder let it expire, or renews it
 * when `holder` already holds it; either way it then expires `ttlSec` after the database's now.
 * Null when another holder's lease has not expired. One atomic statement: of two holders racing
 * for a free lease exactly one gets it.
 */
export async function takeLease(
  db: Db,
  name: string,
  holder: string,
  ttlSec: number,
): Promise<HeldLease | null> {
  // Times in whole milliseconds, as the columns keep them (now() has microseconds, which the
  // columns would round and the driver truncate: a 30 s lease could read as 30.001 s).
  const rows = await db.$queryRaw<TakeRow[]>`
    WITH previous AS (SELECT holder, "expiresAt" FROM leases WHERE name = ${name})
    INSERT INTO leases AS l (name, holder, "acquiredAt", "expiresAt")
    VALUES (${name}, ${holder}, date_trunc('milliseconds', now()),
            date_trunc('milliseconds', now()) + make_interval(secs => ${ttlSec}::float8))
    ON CONFLICT (name) DO UPDATE
       SET holder = EXCLUDED.holder,
           "expiresAt" = EXCLUDED."expiresAt",
           "acquiredAt" = CASE WHEN l.holder = EXCLUDED.holder THEN l."acquiredAt"
                               ELSE EXCLUDED."acquiredAt" END
     WHERE l."expiresAt" <= now() OR l.holder = EXCLUDED.holder
    RETURNING l.name, l.holder, l."acquiredAt", l."expiresAt",
              date_trunc('milliseconds', now()) AS "dbNow",
              (SELECT holder FROM previous) AS "previousHolder",
              (SELECT "expiresAt" FROM previous) AS "previousExpiresAt"`;
  const row = rows[0];
  if (!row) return null;
  const { previousHolder, previousExpiresAt, ...lease } = row;
  return {
    ...lease,
    previous:
      previousHolder !== null && previousExpiresAt !== null
        ? { holder: previousHolder, expiresAt: previousExpiresAt }
        : null,
  };
}

/**
 * Lets lease `name` go at once if `holder` holds it (a server stopping cleanly), so another
 * replica takes it at its next attempt instead of after the time to live. The row stays,
 * expired. True when it was this holder's.
 */
export async function releaseLease(db: Db, name: string, holder: string): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE leases SET "expiresAt" = now() WHERE name = ${name} AND holder = ${holder}`;
  return count > 0;
}

/** Lease `name` as stored, with the database's now; null when nobody ever took it. */
export async function readLease(
  db: Db,
  name: string,
): Promise<{ holder: string; acquiredAt: Date; expiresAt: Date; dbNow: Date } | null> {
  const rows = await db.$queryRaw<
    { holder: string; acquiredAt: Date; expiresAt: Date; dbNow: Date }[]
  >`SELECT holder, "acquiredAt", "expiresAt", now() AS "dbNow" FROM leases WHERE name = ${name}`;
  return rows[0] ?? null;
}
