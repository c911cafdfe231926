import { gunzipSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gzipJsonInBackground, gzipJsonParts, gzipText, joinGzipJson, jsonPieces } from "./gzip";

/** Whether `gz` is one gzip member: its deflate data (after zlib's 10-byte header) ends 8 bytes
 * (CRC and size) before the end. */
function isOneMember(gz: Uint8Array): boolean {
  const inflated = inflateRawSync(gz.subarray(10), { info: true }) as unknown as {
    engine: { bytesWritten: number };
  };
  return inflated.engine.bytesWritten + 18 === gz.length;
}

const encode = (text: string) => Promise.resolve(new TextEncoder().encode(text));

describe("gzip of stored results", () => {
  it("compresses a value's JSON as it is written, to the bytes of its whole text", async () => {
    const jobs = Array.from({ length: 10_000 }, (_, i) => ({
      id: `j${i}`,
      waitSec: i % 7 === 0 ? null : i / 3,
      runs: [{ startSec: i, note: i % 5 === 0 ? undefined : "é" }],
    }));
    const values: unknown[] = [
      { scheduler: "allocation", horizonSec: 12.5, budgets: [{ path: "a" }], jobs },
      { scheduler: "baseline", jobs: [] },
      { jobs: [1, undefined, 3], scheduler: "last key not an array" },
      { at: new Date(0), jobs: [new Date(1)] },
      [1, 2],
      null,
    ];
    for (const value of values) {
      expect(await gzipJsonInBackground(value)).toEqual(gzipText(JSON.stringify(value)));
    }
    expect([...jsonPieces({ a: 1, jobs: [1, 2, 3] }, 2)]).toEqual([
      '{"a":1,"jobs":[',
      "1,2",
      ",3",
      "]}",
    ]);
    expect([...jsonPieces({ jobs: [undefined, () => 1] }, 1)].join("")).toBe(
      '{"jobs":[null,null]}',
    );
  });

  it("joins parts as several members, or as one member from parts' JSON", async () => {
    const joined = joinGzipJson([
      ["baseline", gzipText("[1]")],
      ["allocation", gzipText('{"é":2}')],
    ]);
    const parts = await gzipJsonParts([
      ["baseline", encode("[1]")],
      ["allocation", encode('{"é":2}')],
    ]);
    for (const gz of [joined, parts]) {
      expect(JSON.parse(gunzipSync(gz).toString("utf8"))).toEqual({
        baseline: [1],
        allocation: { é: 2 },
      });
    }
    expect(isOneMember(joined)).toBe(false);
    expect(isOneMember(parts)).toBe(true);
  });

  it("waits for each part in order, and fails when a part fails", async () => {
    let release: (bytes: Uint8Array) => void = () => undefined;
    const late = new Promise<Uint8Array>((resolve) => (release = resolve));
    const gz = gzipJsonParts([
      ["a", late],
      ["b", encode("2")],
    ]);
    release(new TextEncoder().encode("1"));
    expect(gunzipSync(await gz).toString("utf8")).toBe('{"a":1,"b":2}');
    await expect(
      gzipJsonParts([["a", Promise.reject(new Error("replay failed"))]]),
    ).rejects.toThrow("replay failed");
  });

  it("handles the failure of a part it never reached (else it would end the process)", async () => {
    const failed = (message: string) => {
      let fail: (error: Error) => void = () => undefined;
      const promise = new Promise<Uint8Array>((_, reject) => (fail = reject));
      return { promise, fail: () => fail(new Error(message)) };
    };
    const [first, second] = [failed("allocation failed"), failed("baseline failed")];
    const gz = gzipJsonParts([
      ["allocation", first.promise],
      ["baseline", second.promise],
    ]);
    first.fail();
    second.fail();
    await expect(gz).rejects.toThrow("allocation failed");
    // Vitest fails the run on an unhandled rejection; give one the time to surface.
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
});
