// Which files of scripts/bench/ `npm run bench` runs: its benchmarks, the .ts files directly in
// it. Their tests are not benchmarks, and the modules they share live in scripts/bench/lib/.

/** Run only when named: they need a build, a server, Postgres and Chromium, or a database. */
const ONLY_WHEN_NAMED = new Set(["philly-browser.ts", "philly-stored.ts", "queue.ts"]);

/**
 * The benchmarks among `names` (the entries of scripts/bench/), sorted: every one but those run
 * only when named when `wanted` is empty, else those whose name starts with one of `wanted`.
 * Tests (`*.test.ts`) and folders are never benchmarks.
 */
export function selectBenchFiles(names: readonly string[], wanted: readonly string[]): string[] {
  return names
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .filter((name) =>
      wanted.length === 0
        ? !ONLY_WHEN_NAMED.has(name)
        : wanted.some((prefix) => name.startsWith(prefix)),
    )
    .sort();
}
