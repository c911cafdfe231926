import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ensureBundle } from "../../bin/bundle.mjs";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const NAME = `test-${process.pid}`;
const DIR = mkdtempSync(path.join(tmpdir(), "allot-bundle-"));

describe("ensureBundle (bin/bundle.mjs)", () => {
  afterAll(() => {
    rmSync(DIR, { recursive: true, force: true });
    for (const name of [NAME, `${NAME}-bench`]) {
      rmSync(path.join(ROOT, "node_modules", ".cache", "allot", name), {
        recursive: true,
        force: true,
      });
    }
  });

  it("bundles the simulator's benchmark, which imports this bundler", async () => {
    const { entryPath } = await ensureBundle(`${NAME}-bench`, "scripts/bench/sim.ts");
    const bundle = readFileSync(entryPath, "utf8");
    expect(bundle).toContain("ALLOT_BENCH_BUNDLED");
    // The bundler's own text, which names import.meta, left as written.
    expect(bundle).toContain('.replaceAll("import.meta.url"');
  });

  it("builds once, keeps the bundle while its sources read the same, and builds again after a change", async () => {
    const source = path.join(DIR, "entry.ts");
    const helper = path.join(DIR, "helper.ts");
    writeFileSync(helper, "export const value: number = 1;\n");
    writeFileSync(source, 'import { value } from "./helper";\nexport const answer = value;\n');
    const load = async (entryPath: string, version: number) =>
      ((await import(`${pathToFileURL(entryPath).href}?v=${version}`)) as { answer: number })
        .answer;

    const first = await ensureBundle(NAME, source);
    expect(await load(first.entryPath, 1)).toBe(1);
    const builtMs = statSync(first.entryPath).mtimeMs;
    await ensureBundle(NAME, source);
    expect(statSync(first.entryPath).mtimeMs).toBe(builtMs);

    // An imported file changes: the bundle is built again.
    writeFileSync(helper, "export const value: number = 2;\n");
    const second = await ensureBundle(NAME, source);
    expect(await load(second.entryPath, 2)).toBe(2);

    // So does an imported plain JavaScript module (as bin/node-flags.mjs is), bundled as it is
    // written (bin/bundle.mjs, bundled into the benchmark, names import.meta in its text).
    const plain = path.join(DIR, "plain.mjs");
    writeFileSync(plain, 'export const extra = "import.meta.url".length - 5;\n');
    writeFileSync(
      helper,
      'import { extra } from "./plain.mjs";\nexport const value: number = 2 + extra;\n',
    );
    expect(await load((await ensureBundle(NAME, source)).entryPath, 3)).toBe(12);
    writeFileSync(plain, "export const extra = 20;\n");
    expect(await load((await ensureBundle(NAME, source)).entryPath, 4)).toBe(22);
  });
});
