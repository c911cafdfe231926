import { gzipSync } from "node:zlib";

/** Bytes as Prisma's `Bytes` columns type them. */
export type StoredBytes = Uint8Array<ArrayBuffer>;

/** gzip of a text, as stored in the simulations table. */
export function gzipText(text: string): StoredBytes {
  return new Uint8Array(gzipSync(text, { level: 5 }));
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
