import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, callApi, getJson, readApiError } from "./request";

function answerWith(response: Response | Error) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    if (response instanceof Error) throw response;
    return response;
  });
  return calls;
}

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

afterEach(() => vi.unstubAllGlobals());

describe("readApiError", () => {
  it("keeps the error shape's code, message, issues and details", async () => {
    const error = await readApiError(
      json(
        {
          error: {
            code: "conflict",
            message: "The split changed.",
            issues: [{ path: "version", message: "stale" }],
            details: { kind: "stale-version" },
          },
        },
        409,
      ),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect({ ...error, message: error.message }).toEqual({
      name: "ApiError",
      status: 409,
      code: "conflict",
      message: "The split changed.",
      issues: [{ path: "version", message: "stale" }],
      details: { kind: "stale-version" },
    });
  });

  it("says the status when the body is not JSON, with no issues", async () => {
    const error = await readApiError(new Response("<html>", { status: 502 }));
    expect([error.status, error.code, error.message, error.issues]).toEqual([
      502,
      "internal",
      "The server answered 502.",
      [],
    ]);
  });

  it("keeps a body in another shape as details (the health check's 503)", async () => {
    const error = await readApiError(json({ database: "unreachable" }, 503));
    expect([error.code, error.details]).toEqual(["unavailable", { database: "unreachable" }]);
  });
});

describe("callApi", () => {
  it("sends the body as JSON and gives the answer as a value", async () => {
    const calls = answerWith(json({ job: { id: "j1" } }, 201));
    expect(await callApi("POST", "/api/v1/jobs", { name: "a" })).toEqual({
      ok: true,
      value: { job: { id: "j1" } },
    });
    expect(calls[0]?.init.method).toBe("POST");
    expect(calls[0]?.init.body).toBe('{"name":"a"}');
    expect(calls[0]?.init.headers).toEqual({
      accept: "application/json",
      "content-type": "application/json",
    });
  });

  it("gives a failed write's error as a value, never throwing", async () => {
    answerWith(json({ error: { code: "validation_failed", message: "Fix the fields." } }, 422));
    const result = await callApi("POST", "/api/v1/jobs", {});
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect([result.error.status, result.error.message]).toEqual([422, "Fix the fields."]);
  });

  it("turns an unreachable server into status 0, code network", async () => {
    answerWith(new TypeError("Failed to fetch"));
    const result = await callApi("DELETE", "/api/v1/tokens/t1", {});
    expect(result.ok ? null : [result.error.status, result.error.code]).toEqual([0, "network"]);
  });
});

describe("getJson", () => {
  it("throws the ApiError of a failed read (react-query shows its message)", async () => {
    answerWith(json({ error: { code: "not_found", message: "No such simulation." } }, 404));
    await expect(getJson("/api/v1/simulations/x")).rejects.toMatchObject({
      status: 404,
      code: "not_found",
      message: "No such simulation.",
    });
  });

  it("sends no body and no content type", async () => {
    const calls = answerWith(json({ simulations: [] }, 200));
    expect(await getJson("/api/v1/simulations")).toEqual({ simulations: [] });
    expect([calls[0]?.init.method, calls[0]?.init.body, calls[0]?.init.headers]).toEqual([
      "GET",
      undefined,
      { accept: "application/json" },
    ]);
  });
});
