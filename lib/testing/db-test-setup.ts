// Per-file setup for database tests: the app's data layer reads DATABASE_URL.
import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
