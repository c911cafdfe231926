import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, logLevelOf, tokenPrefix } from "./logger";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

describe("the logger", () => {
  it("redacts secrets at the top level and nested, and keeps other fields", () => {
    const { lines, stream } = capture();
    const log = createLogger(stream, "info");
    log.info(
      {
        authorization: "Bearer allot_p_topsecret",
        headers: { cookie: "next-auth.session-token=cookie-secret", "user-agent": "curl/8" },
        req: { headers: { authorization: "Bearer nested-secret" } },
        password: "hunter2",
        env: { NEXTAUTH_SECRET: "nextauth-secret-value" },
        route: "/api/v1/jobs",
      },
      "request",
    );
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    for (const secret of [
      "topsecret",
      "cookie-secret",
      "nested-secret",
      "hunter2",
      "nextauth-secret-value",
    ]) {
      expect(line).not.toContain(secret);
    }
    const entry = JSON.parse(line) as Record<string, unknown>;
    expect(entry).toMatchObject({
      level: "info",
      msg: "request",
      service: "allot",
      route: "/api/v1/jobs",
      authorization: "[redacted]",
      headers: { cookie: "[redacted]", "user-agent": "curl/8" },
      req: { headers: { authorization: "[redacted]" } },
      password: "[redacted]",
      env: { NEXTAUTH_SECRET: "[redacted]" },
    });
  });

  it("writes errors with their stack", () => {
    const { lines, stream } = capture();
    createLogger(stream, "info").error({ err: new Error("boom") }, "unexpected error");
    const entry = JSON.parse(lines[0]!) as { err: { message: string; stack: string } };
    expect(entry.err.message).toBe("boom");
    expect(entry.err.stack).toMatch(/^Error: boom\n\s+at /);
  });

  it("drops lines below the level", () => {
    const { lines, stream } = capture();
    const log = createLogger(stream, "warn");
    log.info("quiet");
    log.warn("loud");
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["loud"]);
  });
});

describe("logLevelOf", () => {
  it("reads pino's levels, any case, and falls back to info", () => {
    expect(logLevelOf("DEBUG")).toBe("debug");
    expect(logLevelOf(" warn ")).toBe("warn");
    expect(logLevelOf(undefined)).toBe("info");
    expect(logLevelOf("verbose")).toBe("info");
  });
});

describe("tokenPrefix", () => {
  it("keeps the stored prefix of a real token, and never more than half of a short one", () => {
    expect(tokenPrefix("allot_c_Q2x9abcdefghijklmnopqrstuvwxyz012345")).toBe("allot_c_Q2x9");
    expect(tokenPrefix("hunter2-abc")).toBe("hunte");
    expect(tokenPrefix("")).toBe("");
  });
});
