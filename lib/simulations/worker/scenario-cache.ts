// Built scenarios kept on disk by the simulation worker, for a built-in source that takes a
// second to build (Philly: CSV, conversion and validation of 82k jobs) and is the same each
// time. An entry is the scenario as v8.serialize bytes, what the cluster threads are sent, named
// by a hash of everything it was built from: the worker's code, Node's version, the input's
// bytes and the options. It is written aside and renamed, so a reader sees a whole entry or
// none; one that does not deserialise is a miss.
import { createHash } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { deserialize } from "node:v8";
import type { Scenario } from "../../sim";

/** Entries kept in a cache directory; older ones are removed as new ones are written. */
export const KEPT_ENTRIES = 4;
const ENTRY = ".scenario";
/** A file being written by a writer that died is removed after this long. */
const ABANDONED_MS = 10 * 60_000;

/** The same JSON for the same value, whatever the order of its objects' keys. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 of bytes, hex. */
export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The key of a cached scenario: a hash of what it was built from (key order does not matter).
 *
 * @example scenarioCacheKey({ code: sha256(workerBundle), trace: sha256(csv), options })
 */
export function scenarioCacheKey(parts: Record<string, unknown>): string {
  return sha256(canonicalJson(parts));
}

/** The cached scenario of `key` and its bytes, or null when there is none (or a broken one). */
export function readCachedScenario(
  dir: string,
  key: string,
): { scenario: Scenario; bytes: Uint8Array } | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.join(dir, key + ENTRY));
  } catch {
    return null;
  }
  try {
    return { scenario: deserialize(bytes) as Scenario, bytes };
  } catch {
    return null;
  }
}

/**
 * Stores a scenario's bytes under `key`, then removes all but the {@link KEPT_ENTRIES} newest
 * entries. Never throws: a cache that cannot be written only costs the next build.
 */
export function writeCachedScenario(dir: string, key: string, bytes: Uint8Array): void {
  try {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, key + ENTRY);
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, bytes);
    renameSync(aside, file);
    pruneCache(dir);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    console.warn(`the scenario cache in ${dir} was not written: ${why}`);
  }
}

function pruneCache(dir: string): void {
  const nowMs = Date.now();
  const files = readdirSync(dir).flatMap((name) => {
    try {
      return [{ name, mtimeMs: statSync(path.join(dir, name)).mtimeMs }];
    } catch {
      return []; // removed meanwhile
    }
  });
  const entries = files
    .filter(({ name }) => name.endsWith(ENTRY))
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .slice(KEPT_ENTRIES);
  const abandoned = files.filter(
    ({ name, mtimeMs }) => name.endsWith(".tmp") && nowMs - mtimeMs > ABANDONED_MS,
  );
  for (const { name } of [...entries, ...abandoned]) {
    try {
      unlinkSync(path.join(dir, name));
    } catch {
      // removed meanwhile
    }
  }
}
