// Vitest global setup for database tests: a fresh database for the run, migrated by
// the project's own runner, dropped afterwards. Real Postgres when DATABASE_URL is set
// (CI), else the embedded PGlite in memory.
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../data/db/embedded-postgres";
import { applyMigrations } from "../data/db/migrator";
import { adminQuery } from "./scratch-database";

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  export interface ProvidedContext {
    databaseUrl: string;
    /** PGlite serialises transactions: tests that hold a lock open from a second connection skip. */
    isEmbeddedDatabase: boolean;
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.DATABASE_URL?.trim();
  if (serverUrl) {
    const name = `allot_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
    const url = withDatabase(serverUrl, name);
    await applyMigrations(url);
    project.provide("databaseUrl", url);
    project.provide("isEmbeddedDatabase", false);
    return async () => {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
  }
  const embedded = await startEmbeddedPostgres("memory://");
  await applyMigrations(embedded.url);
  project.provide("databaseUrl", embedded.url);
  project.provide("isEmbeddedDatabase", true);
  return async () => {
    await embedded.stop();
  };
}
