import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";

/**
 * Throws (with a Node error code) unless `path` could be written: its folder exists and is
 * writable, and the file, if present, is a writable file. Checked before a long run, so that a
 * mistyped `--out` does not cost the run.
 */
export function assertWritable(path: string): void {
  if (path.endsWith("/") || path.endsWith(sep)) {
    throw Object.assign(new Error(`${path} names a folder`), { code: "EISDIR" });
  }
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) {
      throw Object.assign(new Error(`${path} is a directory`), { code: "EISDIR" });
    }
    accessSync(path, constants.W_OK);
    return;
  }
  const folder = dirname(resolve(path));
  if (existsSync(folder) && !statSync(folder).isDirectory()) {
    throw Object.assign(new Error(`${folder} is not a folder`), { code: "ENOTDIR" });
  }
  accessSync(folder, constants.W_OK);
}
