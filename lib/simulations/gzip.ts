import { promisify } from "node:util";
import { gzip, gzipSync } from "node:zlib";

/** Bytes as Prisma's `Bytes` columns type them. */
export type StoredBytes = Uint8Array<ArrayBuffer>;

const GZIP_OPTIONS = { level: 5 };
const gzipAsync = promisify(gzip);

/** gzip of a text, as stored in the simulations table. */
export function gzipText(text: string): StoredBytes {
  return new Uint8Array(gzipSync(text, GZIP_OPTIONS));
}

/**
 * {@link gzipText} on libuv's thread pool (the same bytes): the caller's thread goes on with other
 * work while a large text is compressed.
 */
export async function gzipTextInBackground(text: string): Promise<StoredBytes> {
  return new Uint8Array(await gzipAsync(text, GZIP_OPTIONS));
}

/**
 * gzip members concatenate into one valid gzip stream: `{"baseline":…,"allocation":…}` from
 * already-compressed parts, without unzipping them.
 */
export function joinGzipJson(parts: readonly (readonly [string, StoredBytes])[]): StoredBytes {
  const chunks: Uint8Array[] = [];
  parts.forEach(([name, gz], i) => {
    chunks.push(gzipText(`${i === 0 ? "{" : ","}${JSON.stringify(name)}:`), gz);
  });
  chunks.push(gzipText("}"));
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
