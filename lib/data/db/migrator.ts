// Offline migrations through Prisma's own WASM schema engine
// (docs/decisions/001-migration-runner.md). It writes the standard
// `_prisma_migrations` table, so the Prisma CLI can take over where a site has internet.
import {
  readFileSync,
  readdirSync,
  existsSync,
  mkdirSync,
  writeFileSync,
  copyFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
export const SCHEMA_PATH = path.join(ROOT, "prisma", "schema.prisma");
export const MIGRATIONS_DIR = path.join(ROOT, "prisma", "migrations");
/** Copy of the schema each migration was made from: the "from" side of the next diff. */
const SNAPSHOT_NAME = "schema.prisma.snapshot";
const FILTERS = { externalTables: [], externalEnums: [] };

type EngineModule = typeof import("@prisma/schema-engine-wasm");
type SchemaEngine = Awaited<ReturnType<EngineModule["SchemaEngine"]["new"]>>;

let engineModule: EngineModule | undefined;

/** Node 20 cannot import the package's .wasm as ESM: instantiate it by hand. */
async function loadEngineModule(): Promise<EngineModule> {
  if (engineModule) return engineModule;
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const glue = (await import(pathToFileURL(gluePath).href)) as EngineModule & {
    __wbg_set_wasm: (exports: WebAssembly.Exports) => void;
  };
  const wasmBytes = readFileSync(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
  const wasmModule = new WebAssembly.Module(wasmBytes);
  const instance = new WebAssembly.Instance(wasmModule, {
    "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
  });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  engineModule = glue;
  return glue;
}

async function withEngine<T>(
  databaseUrl: string,
  work: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
    const schema = readFileSync(SCHEMA_PATH, "utf8");
    const engine = await SchemaEngine.new(
      { datamodels: [[SCHEMA_PATH, schema]] },
      () => undefined,
      adapter,
    );
    try {
      return await work(engine);
    } finally {
      engine.free();
    }
  } finally {
    await pool.end();
  }
}

function listMigrations() {
  const directories = existsSync(MIGRATIONS_DIR)
    ? readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    : [];
  const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: {
      path: "migration_lock.toml",
      content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: directories.map((name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: {
          tag: "ok" as const,
          value: readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8"),
        },
      },
    })),
  };
}

/** Applies every migration not yet applied; returns the names it applied. */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  return withEngine(databaseUrl, async (engine) => {
    const output = await engine.applyMigrations({
      migrationsList: listMigrations(),
      filters: FILTERS,
    });
    return output.appliedMigrationNames;
  });
}

/**
 * Writes a new migration folder with the SQL that takes the schema of the last
 * migration to the current schema. Returns null when nothing changed.
 */
export async function createMigration(databaseUrl: string, name: string): Promise<string | null> {
  const migrations = listMigrations().migrationDirectories;
  const last = migrations.at(-1)?.path;
  const previousSchema = last
    ? readFileSync(path.join(MIGRATIONS_DIR, last, SNAPSHOT_NAME), "utf8")
    : null;
  const script = await withEngine(databaseUrl, async (engine) => {
    const result = await engine.diff({
      from: previousSchema
        ? {
            tag: "schemaDatamodel",
            files: [{ path: SCHEMA_PATH, content: previousSchema }],
          }
        : { tag: "empty" },
      to: {
        tag: "schemaDatamodel",
        files: [{ path: SCHEMA_PATH, content: readFileSync(SCHEMA_PATH, "utf8") }],
      },
      script: true,
      exitCode: null,
      filters: FILTERS,
    });
    return result.stdout ?? "";
  });
  if (script.trim() === "" || script.includes("This is an empty migration")) return null;

  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const folder = `${stamp}_${name.replace(/[^a-z0-9_]+/gi, "_").toLowerCase()}`;
  mkdirSync(path.join(MIGRATIONS_DIR, folder), { recursive: true });
  writeFileSync(path.join(MIGRATIONS_DIR, folder, "migration.sql"), script);
  copyFileSync(SCHEMA_PATH, path.join(MIGRATIONS_DIR, folder, SNAPSHOT_NAME));
  const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  if (!existsSync(lockPath)) {
    writeFileSync(lockPath, 'provider = "postgresql"\n');
  }
  return folder;
}
