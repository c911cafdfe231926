import { describe, expect, it } from "vitest";
import { adminEmails, demoModeWarning, isDemoMode, oidcSettings } from "./env";

describe("isDemoMode", () => {
  it("is off unless asked for, whatever NODE_ENV says (plain npm start is not a demo)", () => {
    expect(isDemoMode({})).toBe(false);
    expect(isDemoMode({ NODE_ENV: "development" })).toBe(false);
    expect(isDemoMode({ NODE_ENV: "test" })).toBe(false);
    expect(isDemoMode({ NODE_ENV: "production" })).toBe(false);
    expect(isDemoMode({ ALLOT_DEMO: "" })).toBe(false);
  });

  it("is on when ALLOT_DEMO asks for it, and off for 0 or false", () => {
    expect(isDemoMode({ NODE_ENV: "production", ALLOT_DEMO: "1" })).toBe(true);
    expect(isDemoMode({ ALLOT_DEMO: " TRUE " })).toBe(true);
    expect(isDemoMode({ NODE_ENV: "development", ALLOT_DEMO: "0" })).toBe(false);
    expect(isDemoMode({ ALLOT_DEMO: "false" })).toBe(false);
  });

  it("throws on any other value instead of guessing (ALLOT_DEMO=yes)", () => {
    expect(() => isDemoMode({ ALLOT_DEMO: "yes" })).toThrow(
      'ALLOT_DEMO must be 1 (or true) to ask for demo mode, or 0, false or unset; got "yes".',
    );
  });
});

describe("demoModeWarning", () => {
  it("says on every line that it is a warning, and that sign-in needs no password", () => {
    const lines = demoModeWarning("http://localhost:3000", "0.0.0.0");
    const text = lines.slice(1, -1);
    expect(text.every((line) => line.startsWith("WARNING: "))).toBe(true);
    expect(lines.join("\n")).toContain("Password-free sign-in is on");
    expect(lines).toContain("WARNING: Serving http://localhost:3000, listening on 0.0.0.0.");
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

describe("adminEmails", () => {
  it("is null when ALLOT_ADMINS is unset, empty or blank", () => {
    expect(adminEmails({})).toBeNull();
    expect(adminEmails({ ALLOT_ADMINS: "" })).toBeNull();
    expect(adminEmails({ ALLOT_ADMINS: " , " })).toBeNull();
  });

  it("reads emails separated by commas or spaces, lower-cased, each once", () => {
    expect(
      adminEmails({ ALLOT_ADMINS: " Ada@Lab.example,grace@lab.example  ada@lab.example, " }),
    ).toEqual(["ada@lab.example", "grace@lab.example"]);
  });

  it("throws on a word that is not an email (a typo, a name, a stray @)", () => {
    expect(() => adminEmails({ ALLOT_ADMINS: "ada@lab.example, grace, @lab.example" })).toThrow(
      'ALLOT_ADMINS must list email addresses separated by commas; these are not: "grace", "@lab.example".',
    );
  });
});
