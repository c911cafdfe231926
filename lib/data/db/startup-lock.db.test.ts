// Two replicas starting at once on one empty database (docs/deploy.md, upgrades): migrations
// wait for each other under the schema engine's advisory lock, and demo seeds under ours (two
// servers seeding at once: e2e/replicas.spec.ts). Real PostgreSQL only: PGlite is one session,
// where a lock never waits.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { adminQuery } from "../../testing/scratch-database";
import { applyMigrations } from "./migrator";
import { withStartupLock } from "./startup-lock";

const serverUrl = inject("databaseUrl");
const isEmbedded = inject("isEmbeddedDatabase");
const created: string[] = [];
/** The advisory lock Prisma's schema engine takes around applying migrations. */
const PRISMA_MIGRATE_LOCK = 72707369;

async function emptyDatabase(): Promise<string> {
  const name = `allot_start_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  created.push(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Whether `promise` is still pending after `ms`. */
async function isPendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const marker = Symbol("pending");
  const timer = new Promise((resolve) => setTimeout(() => resolve(marker), ms));
  return (await Promise.race([promise.then(() => null), timer])) === marker;
}

afterAll(async () => {
  for (const name of created) {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
});

describe.skipIf(isEmbedded)("replicas starting at once on one database", () => {
  it("a migration waits while another process holds the schema engine's lock", async () => {
    const url = await emptyDatabase();
    const holder = await connect(url);
    await holder.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
    const migrating = applyMigrations(url);
    expect(await isPendingAfter(migrating, 1500)).toBe(true);
    const tables = await holder.query("SELECT to_regclass('public.jobs') IS NULL AS missing");
    expect(tables.rows[0]).toEqual({ missing: true });
    await holder.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK]);
    expect((await migrating).length).toBeGreaterThanOrEqual(10);
    await holder.end();
  });

  it("two migrations at once: one applies every migration, the other none, nothing rolled back", async () => {
    const url = await emptyDatabase();
    const [first, second] = await Promise.all([applyMigrations(url), applyMigrations(url)]);
    const counts = [first.length, second.length].sort((a, b) => a - b);
    expect(counts[0]).toBe(0);
    expect(counts[1]).toBeGreaterThanOrEqual(10);
    const client = await connect(url);
    const rows = await client.query(
      `SELECT count(*)::int AS applied, count(rolled_back_at)::int AS rolled_back,
              count(DISTINCT migration_name)::int AS distinct_names
         FROM _prisma_migrations WHERE finished_at IS NOT NULL`,
    );
    await client.end();
    expect(rows.rows[0]).toEqual({
      applied: counts[1],
      rolled_back: 0,
      distinct_names: counts[1],
    });
  });

  it("start-up work waits for another process's start-up lock", async () => {
    const url = await emptyDatabase();
    const holder = await connect(url);
    await holder.query("SELECT pg_advisory_lock(7732, 0)");
    let hasRun = false;
    const work = withStartupLock(url, async () => {
      hasRun = true;
      return "done";
    });
    expect(await isPendingAfter(work, 1000)).toBe(true);
    expect(hasRun).toBe(false);
    await holder.query("SELECT pg_advisory_unlock(7732, 0)");
    expect(await work).toBe("done");
    await holder.end();
  });
});
