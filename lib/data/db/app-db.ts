// The app's one Prisma client, cached across hot reloads outside production.
import "server-only";
import { createPrismaClient, type Db } from "./client";

const globalForDb = globalThis as unknown as { allotDb?: Db; allotLeaseDb?: Db };

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error("DATABASE_URL is not set: start the app with `npm start` or `npm run dev`.");
  }
  return url;
}

export function getDb(): Db {
  globalForDb.allotDb ??= createPrismaClient(databaseUrl());
  return globalForDb.allotDb;
}

/**
 * A client of one connection of its own for the leader lease (lib/leader/leader.ts), so that
 * renewing or releasing it never waits behind the app's ticks and requests for a connection.
 */
export function getLeaseDb(): Db {
  globalForDb.allotLeaseDb ??= createPrismaClient(databaseUrl(), 1);
  return globalForDb.allotLeaseDb;
}
