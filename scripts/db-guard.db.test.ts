// `npm run db:seed` and `db:reset` refuse a database that holds a real site's accounts unless
// told --force: the demo lab's users (an admin among them) would join it, or it would be wiped.
import { execFile } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../prisma/seed";
import { countSiteAccounts } from "./site-accounts";
import { openScratchDatabase, type ScratchDatabase } from "../lib/testing/scratch-database";

let scratch: ScratchDatabase;
let usersBefore: { n: number }[] = [];

async function query(sql: string): Promise<{ n: number }[]> {
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** `tsx scripts/db.ts ...args` on the scratch database; async, so that an embedded one answers. */
function db(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/db.ts", ...args],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: "test",
          DATABASE_URL: scratch.url,
        } as NodeJS.ProcessEnv,
        encoding: "utf8",
        timeout: 120_000,
      },
      (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
    );
  });
}

beforeAll(async () => {
  scratch = await openScratchDatabase(inject("databaseUrl"), inject("isEmbeddedDatabase"));
}, 120_000);
afterAll(() => scratch.drop());

describe("countSiteAccounts", () => {
  it("counts none on a demo lab, seeded twice, and each account the seed did not make", async () => {
    expect(await countSiteAccounts(scratch.url)).toBe(0);
    await seedDemoLab(scratch.url, { withHistory: false });
    await seedDemoLab(scratch.url, { withHistory: false });
    expect(await countSiteAccounts(scratch.url)).toBe(0);
    await query(
      `INSERT INTO users (id, email, name) VALUES ('u-site', 'grace@lab.example', 'Grace')`,
    );
    expect(await countSiteAccounts(scratch.url)).toBe(1);
    usersBefore = await query(`SELECT count(*)::int AS n FROM users`);
  }, 120_000);
});

describe("db:seed and db:reset on a real site's database", () => {
  it.each(["seed", "reset"])("%s refuses, names --force and changes nothing", async (command) => {
    const run = await db(command);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "This database has an account that is not a demo user: it is a real site",
    );
    expect(run.stderr).toContain(`npm run db:${command} -- --force`);
  });

  it("left the site as it was", async () => {
    expect(await query(`SELECT count(*)::int AS n FROM users`)).toEqual(usersBefore);
  });
});
