import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The engine's shape (issue #34): no function outside tests longer than MAX_FUNCTION_LINES, and
// no import circle between its files (type-only imports count: a circle of types is one too).

const ENGINE_DIR = path.join(import.meta.dirname, "../lib/engine");
const MAX_FUNCTION_LINES = 120;

/** The engine's source files, tests and test helpers aside, by file name. */
function sourceFiles(): Map<string, ts.SourceFile> {
  const files = new Map<string, ts.SourceFile>();
  for (const name of readdirSync(ENGINE_DIR).sort()) {
    if (!name.endsWith(".ts") || name.endsWith(".test.ts") || name === "test-helpers.ts") continue;
    const text = readFileSync(path.join(ENGINE_DIR, name), "utf8");
    files.set(name, ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true));
  }
  return files;
}

/** Functions (declarations, methods, arrows, expressions) longer than the limit: "file name". */
export function longFunctions(files: Map<string, ts.SourceFile>, maxLines: number): string[] {
  const found: string[] = [];
  for (const [name, file] of files) {
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = last - first + 1;
        const label =
          node.name && ts.isIdentifier(node.name) ? node.name.text : `line ${first + 1}`;
        if (lines > maxLines) found.push(`${name} ${label}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** Import circles between the files, each as the files around it, from its smallest name. */
export function importCircles(files: Map<string, ts.SourceFile>): string[] {
  const edges = new Map<string, string[]>();
  for (const [name, file] of files) {
    const targets: string[] = [];
    for (const statement of file.statements) {
      const isImportOrExport =
        ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement);
      const specifier = isImportOrExport ? statement.moduleSpecifier : undefined;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith("./"))
        continue;
      targets.push(`${specifier.text.slice(2)}.ts`);
    }
    edges.set(
      name,
      targets.filter((target) => files.has(target)),
    );
  }
  const circles = new Set<string>();
  const onPath: string[] = [];
  const done = new Set<string>();
  const visit = (name: string): void => {
    const at = onPath.indexOf(name);
    if (at >= 0) {
      const circle = onPath.slice(at);
      const start = circle.indexOf([...circle].sort()[0]!);
      circles.add([...circle.slice(start), ...circle.slice(0, start)].join(" -> "));
      return;
    }
    if (done.has(name)) return;
    onPath.push(name);
    for (const target of edges.get(name) ?? []) visit(target);
    onPath.pop();
    done.add(name);
  };
  for (const name of [...edges.keys()].sort()) visit(name);
  return [...circles].sort();
}

describe("the engine's structure", () => {
  const files = sourceFiles();
  it("has no function longer than 120 lines outside tests", () => {
    expect(longFunctions(files, MAX_FUNCTION_LINES)).toEqual([]);
  });

  it("has no import circle", () => {
    expect(importCircles(files)).toEqual([]);
  });
});
