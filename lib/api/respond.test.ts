import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { MAX_JSON_BYTES, readJson, readOptionalJson } from "./respond";

/** A POST of `body` declared JSON unless `headers` say otherwise (a string alone is text/plain). */
function post(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request("http://allot.test/api/v1/tokens", {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
    // A streamed body (no Content-Length) needs half duplex in Node's fetch.
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** A body that declares no length: `chunks` chunks of `chunkBytes` spaces each. */
function streamed(chunks: number, chunkBytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent === chunks) return controller.close();
      sent += 1;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x20));
    },
  });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("readJson: body size", () => {
  it("parses a body at the limit", async () => {
    const text = JSON.stringify({ name: "x".repeat(MAX_JSON_BYTES - 20) }).padEnd(MAX_JSON_BYTES);
    expect(await readJson(post(text))).toEqual({ name: "x".repeat(MAX_JSON_BYTES - 20) });
  });

  it("refuses a body one byte over the limit with 413", async () => {
    const error = await refusal(readJson(post(" ".repeat(MAX_JSON_BYTES) + "1")));
    expect(error.code).toBe("payload_too_large");
    expect(error.status).toBe(413);
    expect(error.message).toBe("The request body is larger than this route takes (1 MiB).");
  });

  it("refuses a body over the limit that declares no length (a stream), and over a route's own limit", async () => {
    const error = await refusal(readJson(post(streamed(64, 32 * 1024))));
    expect(error.status).toBe(413);
    const small = await refusal(readJson(post(`"${"x".repeat(1024)}"`), { maxBytes: 1024 }));
    expect(small.message).toBe("The request body is larger than this route takes (1 KiB).");
  });

  it("refuses by the declared Content-Length before reading", async () => {
    const request = post("{}", { "content-length": String(MAX_JSON_BYTES + 1) });
    expect((await refusal(readJson(request))).status).toBe(413);
  });

  it("still answers 400 for a body that is not JSON, and {} for an empty optional body", async () => {
    expect((await refusal(readJson(post("{oops")))).status).toBe(400);
    expect(await readOptionalJson(post(""))).toEqual({});
    expect((await refusal(readOptionalJson(post(" ".repeat(MAX_JSON_BYTES + 1))))).status).toBe(
      413,
    );
  });
});

describe("readJson and readOptionalJson: body type", () => {
  const bearer = { authorization: "Bearer allot_p_x" };

  it("refuses a body not declared JSON with 415, as the proxy refuses a cookie-signed one", async () => {
    const text = await refusal(readJson(post("{}", { ...bearer, "content-type": "text/plain" })));
    expect(text).toMatchObject({
      code: "unsupported_media_type",
      status: 415,
      message:
        "Send the request as JSON with 'Content-Type: application/json'; it was \"text/plain\".",
    });
    const form = post("a=1", { ...bearer, "content-type": "application/x-www-form-urlencoded" });
    expect((await refusal(readJson(form))).status).toBe(415);
    const optional = post("{}", { ...bearer, "content-type": "text/plain" });
    expect((await refusal(readOptionalJson(optional))).code).toBe("unsupported_media_type");
  });

  it("refuses a body with no type at all with 415 (bytes carry none)", async () => {
    const untyped = new Request("http://allot.test/api/v1/jobs/j1/cancel", {
      method: "POST",
      body: new TextEncoder().encode('{"reason":"x"}'),
      headers: bearer,
    });
    expect(untyped.headers.get("content-type")).toBeNull();
    expect((await refusal(readOptionalJson(untyped))).message).toBe(
      "Send the request as JSON with 'Content-Type: application/json'; it was sent with none.",
    );
  });

  it("takes JSON with parameters, and no body at all where the body is optional", async () => {
    const withCharset = post('{"a":1}', { "content-type": "Application/JSON; charset=utf-8" });
    expect(await readJson(withCharset)).toEqual({ a: 1 });
    const none = new Request("http://allot.test/api/v1/jobs/j1/cancel", {
      method: "POST",
      headers: bearer,
    });
    expect(await readOptionalJson(none)).toEqual({});
  });
});
