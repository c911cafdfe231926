// Which files of scripts/bench/ `npm run bench` runs: its benchmarks, not their tests nor the
// modules they share.

/** Run only when named: they need a build, a server, Postgres and Chromium, or a database. */
const ONLY_WHEN_NAMED = new Set(["philly-browser.ts", "philly-stored.ts"]);
/** Modules the benchmarks import, which measure nothing on their own. */
const SHARED_MODULES = new Set(["bench-simulations.ts"]);

/**
 * The benchmarks among `files` (names in scripts/bench/), sorted: every one but those run only
 * when named when `wanted` is empty, else those whose name starts with one of `wanted`. Tests
 * (`*.test.ts`) and shared modules are never benchmarks.
 */
export function selectBenchFiles(files: readonly string[], wanted: readonly string[]): string[] {
  return files
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .filter((file) => !SHARED_MODULES.has(file))
    .filter((file) =>
      wanted.length === 0
        ? !ONLY_WHEN_NAMED.has(file)
        : wanted.some((name) => file.startsWith(name)),
    )
    .sort();
}
