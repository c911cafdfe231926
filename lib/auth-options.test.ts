// next-auth's messages go to the server's JSON log, one line each, secrets redacted.
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_LOGGER } from "./auth-options";
import { resetLogger, setLogDestination } from "./log/logger";

const lines: string[] = [];

beforeAll(() => {
  setLogDestination(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    }),
    "info",
  );
});
afterAll(() => resetLogger());

describe("AUTH_LOGGER", () => {
  it("writes a provider's refusal as one JSON error line, with its code and cause", () => {
    AUTH_LOGGER.error("OAUTH_CALLBACK_ERROR", {
      error: new Error("invalid_client (client authentication failed)"),
      providerId: "oidc",
      clientSecret: "s3cret-not-for-logs",
    });
    AUTH_LOGGER.warn("NEXTAUTH_URL");
    expect(lines).toHaveLength(2);
    const [error, warning] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(error).toMatchObject({
      level: "error",
      service: "allot",
      authCode: "OAUTH_CALLBACK_ERROR",
      providerId: "oidc",
      clientSecret: "[redacted]",
      msg: "sign-in: OAUTH_CALLBACK_ERROR",
      err: { message: "invalid_client (client authentication failed)" },
    });
    expect(lines[0]).not.toContain("s3cret-not-for-logs");
    expect(warning).toMatchObject({ level: "warn", authCode: "NEXTAUTH_URL" });
  });
});
