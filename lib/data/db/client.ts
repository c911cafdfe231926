// Builds a Prisma client on the pg driver adapter. The app keeps one (lib/data/db/app-db.ts);
// scripts and tests make their own for the database they were given.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../generated/prisma/client";

export type Db = PrismaClient;

/** A connection that the database does not answer within this fails (503), never hangs. */
const CONNECT_TIMEOUT_MS = 10_000;

export function createPrismaClient(databaseUrl: string, maxConnections = 10): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: maxConnections,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  return new PrismaClient({ adapter });
}
