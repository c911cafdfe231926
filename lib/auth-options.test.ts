// next-auth's messages go to the server's JSON log, one line each, secrets redacted.
import { afterAll, describe, expect, it } from "vitest";
import { AUTH_LOGGER } from "./auth-options";
import { captureLogs } from "./testing/log-capture";

const logs = captureLogs();
afterAll(() => logs.stop());

describe("AUTH_LOGGER", () => {
  it("writes a provider's refusal as one JSON error line, with its code and cause", () => {
    AUTH_LOGGER.error("OAUTH_CALLBACK_ERROR", {
      error: new Error("invalid_client (client authentication failed)"),
      providerId: "oidc",
      clientSecret: "s3cret-not-for-logs",
    });
    AUTH_LOGGER.warn("NEXTAUTH_URL");
    const [error, warning, ...more] = logs.entries();
    expect(more).toEqual([]);
    expect(error).toMatchObject({
      level: "error",
      service: "allot",
      authCode: "OAUTH_CALLBACK_ERROR",
      providerId: "oidc",
      clientSecret: "[redacted]",
      msg: "sign-in: OAUTH_CALLBACK_ERROR",
      err: { message: "invalid_client (client authentication failed)" },
    });
    expect(logs.text()).not.toContain("s3cret-not-for-logs");
    expect(warning).toMatchObject({ level: "warn", authCode: "NEXTAUTH_URL" });
  });
});
