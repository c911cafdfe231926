import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The server side's folders (issue #34, docs/architecture.md): no import loop between folders of
// lib/, scripts/ and prisma/ (type-only imports count), whether sub-folders count on their own
// or with their parent, and nothing of lib/ or prisma/ imports lib/testing (scripts/ may: the
// benches and the test runner are tooling). A folder is a directory; a file directly in lib/ or
// scripts/ is a folder of its own. Tests are left out: a test may import what its code may not.

const ROOT = path.resolve(import.meta.dirname, "..");
const TOP = ["lib", "scripts", "prisma"];
const SKIP = new Set(["node_modules", "generated"]);

function isTest(file: string): boolean {
  return /\.test\.tsx?$/.test(file);
}

/** Source files (repository-relative, "/" separated) under the top folders, tests aside. */
function sourceFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name)) walk(file);
      } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !isTest(file)) {
        found.push(file);
      }
    }
  };
  TOP.forEach(walk);
  return found.sort();
}

const CANDIDATES = ["", ".ts", ".tsx", ".mts", "/index.ts"];

/** The file a relative or "@/" specifier names, or null for a package (or a missing file). */
function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null;
  for (const suffix of CANDIDATES) {
    const file = base + suffix;
    const full = path.join(ROOT, file);
    if (existsSync(full) && statSync(full).isFile()) return file;
  }
  return null;
}

export function folderOf(file: string): string {
  const dir = path.posix.dirname(file);
  return dir === "lib" || dir === "scripts" ? file : dir;
}

/** The folder as the top of the tree shows it: lib/data/tick/tick.ts is in lib/data. */
export function topFolderOf(file: string): string {
  return folderOf(file).split("/").slice(0, 2).join("/");
}

/** Folder -> folder -> the file imports that make the arrow ("a.ts -> b.ts"). */
export function folderImports(
  files: string[],
  folderOf: (file: string) => string,
): Map<string, Map<string, string[]>> {
  const arrows = new Map<string, Map<string, string[]>>();
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const from = folderOf(file);
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolveImport(file, imported.fileName);
      if (!target || isTest(target)) continue;
      const to = folderOf(target);
      // A barrel re-exporting its own sub-folder (lib/sim/index.ts -> lib/sim/traces) is one part.
      const isOwnBarrel = file.endsWith("/index.ts") && to.startsWith(`${from}/`);
      if (to === from || isOwnBarrel) continue;
      const byTarget = arrows.get(from) ?? new Map<string, string[]>();
      byTarget.set(to, [...(byTarget.get(to) ?? []), `${file} -> ${target}`]);
      arrows.set(from, byTarget);
    }
  }
  return arrows;
}

/** The folder loops (strongly connected sets of two or more folders), each with its arrows. */
export function folderLoops(arrows: Map<string, Map<string, string[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  let next = 0;
  const visit = (folder: string): void => {
    index.set(folder, next);
    low.set(folder, next);
    next += 1;
    stack.push(folder);
    for (const to of arrows.get(folder)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(folder, Math.min(low.get(folder)!, low.get(to)!));
      } else if (stack.includes(to)) {
        low.set(folder, Math.min(low.get(folder)!, index.get(to)!));
      }
    }
    if (low.get(folder) !== index.get(folder)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      members.push(member);
    } while (member !== folder);
    if (members.length < 2) return;
    const inLoop = new Set(members);
    loops.push(
      members
        .sort()
        .flatMap((from) =>
          [...(arrows.get(from) ?? [])]
            .filter(([to]) => inLoop.has(to))
            .map(([to, imports]) => `${from} -> ${to} (${imports[0]})`),
        ),
    );
  };
  for (const folder of [...arrows.keys()].sort()) if (!index.has(folder)) visit(folder);
  return loops;
}

describe("the server side's folders", () => {
  const files = sourceFiles();
  const arrows = folderImports(files, folderOf);

  it("import each other one way: no loop between folders", () => {
    expect(folderLoops(arrows)).toEqual([]);
  });

  it("import each other one way seen from the top too (lib/data as one, lib/simulations as one)", () => {
    expect(folderLoops(folderImports(files, topFolderOf))).toEqual([]);
  });

  it("leave lib/testing to the tests and tooling: nothing of lib/ or prisma/ imports it", () => {
    const intoTesting = [...arrows]
      .filter(([from]) => from !== "lib/testing" && !from.startsWith("scripts"))
      .flatMap(([, byTarget]) => byTarget.get("lib/testing") ?? []);
    expect(intoTesting).toEqual([]);
  });

  it("finds a loop where there is one (the check itself)", () => {
    const loop = new Map([
      ["lib/a", new Map([["lib/b", ["lib/a/x.ts -> lib/b/y.ts"]]])],
      ["lib/b", new Map([["lib/a", ["lib/b/y.ts -> lib/a/z.ts"]]])],
      ["lib/c", new Map([["lib/a", ["lib/c/w.ts -> lib/a/x.ts"]]])],
    ]);
    expect(folderLoops(loop)).toEqual([
      ["lib/a -> lib/b (lib/a/x.ts -> lib/b/y.ts)", "lib/b -> lib/a (lib/b/y.ts -> lib/a/z.ts)"],
    ]);
    expect(folderOf("lib/auth.ts")).toBe("lib/auth.ts");
    expect(folderOf("lib/data/tick/tick.ts")).toBe("lib/data/tick");
    expect(topFolderOf("lib/data/tick/tick.ts")).toBe("lib/data");
    expect(topFolderOf("scripts/bench/sim.ts")).toBe("scripts/bench");
  });
});
