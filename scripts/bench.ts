// npm run bench [name...] - runs each benchmark in scripts/bench/ in its own process,
// one after another, so that one cannot warm or slow the next. philly-browser (a production
// build, a server, Postgres and Chromium, a few minutes) and philly-stored (Postgres's bench
// database) run only when named.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { selectBenchFiles } from "./bench-files";

const benchDir = path.join(import.meta.dirname, "bench");
const wanted = process.argv.slice(2);
const files = selectBenchFiles(readdirSync(benchDir), wanted);

let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const result = spawnSync("npx", ["tsx", path.join(benchDir, file)], { stdio: "inherit" });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
