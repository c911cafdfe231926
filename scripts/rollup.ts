// npm run db:rollup [-- --from <time>] [--to <time>] - rebuilds the hourly roll-ups from runs,
// jobs and node health history in one transaction (lib/data/tick/rollups.ts), against DATABASE_URL
// or the embedded database. Exit 2 on a bad command line, 1 on a failure.
import { UsageError } from "../lib/cli/io";
import { parseRollupArgs, ROLLUP_HELP } from "../lib/cli/rollup-args";
import { createPrismaClient } from "../lib/data/db/client";
import { openDatabase } from "../lib/data/db/connect";
import { applyMigrations } from "../lib/data/db/migrator";
import { rebuildRollups } from "../lib/data/tick/rollups";

async function main(argv: string[]): Promise<number> {
  let range;
  try {
    range = parseRollupArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 2;
  }
  if (range.isHelp) {
    console.log(ROLLUP_HELP);
    return 0;
  }
  const database = await openDatabase();
  const db = createPrismaClient(database.url, 2);
  try {
    await applyMigrations(database.url);
    const result = await rebuildRollups(db, range);
    const iso = (sec: number) => new Date(sec * 1000).toISOString();
    console.log(`rebuilt the hourly roll-ups from ${iso(result.fromSec)} to ${iso(result.toSec)}:`);
    for (const cluster of result.clusters) {
      console.log(`  ${cluster.name}: ${cluster.rows} rows over ${cluster.hours} hours`);
    }
    console.log(`${result.rows} rows in all, ${result.durationMs} ms, one transaction`);
    return 0;
  } finally {
    await db.$disconnect();
    await database.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`db:rollup: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
