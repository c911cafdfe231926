import { describe, expect, it } from "vitest";
import { isDemoMode, oidcSettings } from "./env";

describe("isDemoMode", () => {
  it("is on by default outside production and off in production", () => {
    expect(isDemoMode({ NODE_ENV: "development" })).toBe(true);
    expect(isDemoMode({})).toBe(true);
    expect(isDemoMode({ NODE_ENV: "production" })).toBe(false);
  });

  it("follows ALLOT_DEMO when it is set explicitly", () => {
    expect(isDemoMode({ NODE_ENV: "production", ALLOT_DEMO: "1" })).toBe(true);
    expect(isDemoMode({ NODE_ENV: "production", ALLOT_DEMO: "true" })).toBe(true);
    expect(isDemoMode({ NODE_ENV: "development", ALLOT_DEMO: "0" })).toBe(false);
  });
});

describe("oidcSettings", () => {
  it("needs the issuer, client id and secret together", () => {
    expect(
      oidcSettings({ OIDC_ISSUER: "https://id.example.org", OIDC_CLIENT_ID: "allot" }),
    ).toBeNull();
    expect(
      oidcSettings({
        OIDC_ISSUER: "https://id.example.org",
        OIDC_CLIENT_ID: "allot",
        OIDC_CLIENT_SECRET: "s3cret",
      }),
    ).toEqual({
      issuer: "https://id.example.org",
      clientId: "allot",
      clientSecret: "s3cret",
      name: "Single sign-on",
    });
  });
});
