import { once } from "node:events";
import { promisify } from "node:util";
import { createGzip, gzip, gzipSync } from "node:zlib";

/** Bytes as Prisma's `Bytes` columns type them. */
export type StoredBytes = Uint8Array<ArrayBuffer>;

const GZIP_OPTIONS = { level: 5 };
const gzipAsync = promisify(gzip);

/** gzip of a text, as stored in the simulations table. */
export function gzipText(text: string): StoredBytes {
  return new Uint8Array(gzipSync(text, GZIP_OPTIONS));
}

/**
 * Output chunks big enough for a whole text in one or two: zlib's thread-pool work goes chunk by
 * chunk, each next one started from the caller's thread, so small chunks stall while it is busy.
 */
function chunkSizeFor(length: number): number {
  return Math.max(64 * 1024, Math.ceil(length / 4));
}

/**
 * {@link gzipText} on libuv's thread pool (the same bytes): the caller's thread goes on with other
 * work while a large text is compressed.
 */
export async function gzipTextInBackground(text: string): Promise<StoredBytes> {
  return new Uint8Array(
    await gzipAsync(text, { ...GZIP_OPTIONS, chunkSize: chunkSizeFor(text.length) }),
  );
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

/**
 * `{"name":…,…}` as one gzip member, from each part's JSON (UTF-8), compressed on the thread pool
 * part after part as each is ready: the parts ready early are compressed while the later ones
 * are still being built. One member, unlike {@link joinGzipJson}: a browser's
 * DecompressionStream refuses several.
 */
export async function gzipJsonParts(
  parts: readonly (readonly [string, Promise<Uint8Array>])[],
): Promise<StoredBytes> {
  const stream = createGzip({ ...GZIP_OPTIONS, chunkSize: chunkSizeFor(4 << 20) });
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = once(stream, "end");
  try {
    for (const [i, [name, json]] of parts.entries()) {
      stream.write(`${i === 0 ? "{" : ","}${JSON.stringify(name)}:`);
      stream.write(await json);
    }
    stream.end("}");
    await ended;
  } catch (error) {
    stream.destroy();
    throw error;
  }
  return new Uint8Array(Buffer.concat(chunks));
}
