// npm run db:migrate | db:migrate:create <name> | db:seed | db:reset
// Works against DATABASE_URL, or against the embedded database when it is unset.
import { openDatabase } from "../lib/data/db/connect";
import { applyMigrations, createMigration } from "../lib/data/db/migrator";
import { resetDatabase } from "../lib/data/db/reset";
import { seedDemoLab } from "../prisma/seed";

const USAGE = "usage: tsx scripts/db.ts migrate | create <name> | seed | reset";

async function main(argv: string[]): Promise<number> {
  const [command, name] = argv;
  if (!command || !["migrate", "create", "seed", "reset"].includes(command)) {
    console.error(USAGE);
    return 2;
  }
  if (command === "create" && !name) {
    console.error("db:migrate:create needs a name, e.g. npm run db:migrate:create -- add_reports");
    return 2;
  }
  const database = await openDatabase();
  try {
    if (command === "create") {
      const folder = await createMigration(database.url, name ?? "");
      console.log(folder ? `created prisma/migrations/${folder}` : "the schema has not changed");
      return 0;
    }
    if (command === "reset") {
      await resetDatabase(database.url);
      console.log("dropped every table");
    }
    const applied = await applyMigrations(database.url);
    console.log(applied.length ? `applied ${applied.join(", ")}` : "migrations up to date");
    if (command === "seed" || command === "reset") {
      const summary = await seedDemoLab(database.url, { log: (line) => console.log(line) });
      console.log(`seeded: ${summary}`);
    }
    return 0;
  } finally {
    await database.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
