// Per-file setup for database tests: the app's data layer reads DATABASE_URL.
import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
// The app's JSON log lines (lib/log/logger.ts) only from warnings up, so test output stays readable.
process.env.LOG_LEVEL ??= "warn";
