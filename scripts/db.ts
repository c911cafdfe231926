// npm run db:migrate | db:migrate:create <name> | db:seed | db:reset [-- --force]
// Works against DATABASE_URL, or against the embedded database when it is unset.
import { openDatabase } from "../lib/data/db/connect";
import { countSiteAccounts } from "./site-accounts";
import { applyMigrations, createMigration } from "../lib/data/db/migrator";
import { resetDatabase } from "../lib/data/db/reset";
import { seedDemoLab } from "../prisma/seed";

const USAGE = "usage: tsx scripts/db.ts migrate | create <name> | seed [--force] | reset [--force]";

async function main(argv: string[]): Promise<number> {
  const isForced = argv.includes("--force");
  const [command, name] = argv.filter((arg) => arg !== "--force");
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
    if (command === "seed" || command === "reset") {
      const accounts = isForced ? 0 : await countSiteAccounts(database.url);
      if (accounts > 0) {
        const what =
          command === "reset"
            ? "db:reset would delete everything in it"
            : "db:seed would add the demo lab to it: its users (an admin among them), clusters and budgets";
        console.error(
          `This database has ${accounts === 1 ? "an account that is not a demo user" : `${accounts} accounts that are not demo users`}: it is a real site, and ${what}. ` +
            `To do it anyway: npm run db:${command} -- --force`,
        );
        return 1;
      }
    }
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
