import { once } from "node:events";
import { createGzip, gzipSync } from "node:zlib";

/** Bytes as Prisma's `Bytes` columns type them. */
export type StoredBytes = Uint8Array<ArrayBuffer>;

const GZIP_OPTIONS = { level: 5 };

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
 * `JSON.stringify(value)` in pieces, joined the same: when the last key of the object `value`
 * holds an array (a report's jobs), its items `itemsPerPiece` at a time; else the whole text.
 *
 * @example [...jsonPieces({ a: 1, jobs: [1, 2, 3] }, 2)] // ['{"a":1,"jobs":[', "1,2", ",3", "]}"]
 */
export function* jsonPieces(value: unknown, itemsPerPiece: number): Generator<string> {
  const lastKey =
    value !== null && typeof value === "object" && !Array.isArray(value) && !("toJSON" in value)
      ? Object.keys(value).at(-1)
      : undefined;
  const items = lastKey === undefined ? undefined : (value as Record<string, unknown>)[lastKey];
  if (!Array.isArray(items)) {
    yield JSON.stringify(value);
    return;
  }
  const head = JSON.stringify({ ...(value as object), [lastKey!]: [] });
  yield head.slice(0, -2); // without "]}"
  for (let at = 0; at < items.length; at += itemsPerPiece) {
    const piece = JSON.stringify(items.slice(at, at + itemsPerPiece)).slice(1, -1); // no "[]"
    yield at === 0 ? piece : `,${piece}`;
  }
  yield "]}";
}

const ITEMS_PER_PIECE = 4096;

/**
 * {@link gzipText} of `JSON.stringify(value)` (the same bytes), compressed on libuv's thread pool
 * while the text is still being written: a piece of it ({@link jsonPieces}) is compressed while
 * the next is stringified, so a report's 34 MB cost about one of the two rather than both.
 */
export async function gzipJsonInBackground(value: unknown): Promise<StoredBytes> {
  // Output chunks that hold a whole piece's: zlib goes back to this thread for each.
  const stream = createGzip({ ...GZIP_OPTIONS, chunkSize: 1 << 20 });
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = once(stream, "end");
  for (const piece of jsonPieces(value, ITEMS_PER_PIECE)) {
    stream.write(piece);
    // Back to the event loop: zlib starts compressing what was written, meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
  }
  stream.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
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
  // A part that fails after an earlier one failed is never awaited below; unhandled, its
  // rejection would end the worker's process.
  for (const [, json] of parts) json.catch(() => undefined);
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
