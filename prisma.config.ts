// Prisma CLI configuration. The CLI wants a native schema engine it would download;
// `generate` never runs it, so a stand-in keeps `postinstall` offline
// (docs/decisions/001-migration-runner.md). Migrations run through scripts/db.ts.
import path from "node:path";
import { defineConfig } from "prisma/config";

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(
  import.meta.dirname,
  "scripts",
  "no-schema-engine.sh",
);

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
