import { describe, expect, it } from "vitest";
import {
  adminEmails,
  demoHistoryDays,
  demoModeWarning,
  isDemoMode,
  leaseTtlSec,
  listenUrlOf,
  oidcSettings,
} from "./env";

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

describe("listenUrlOf", () => {
  it("is HOST itself when it names one address, an IPv6 address in brackets once", () => {
    expect(listenUrlOf("10.0.0.5", 3000)).toBe("http://10.0.0.5:3000");
    expect(listenUrlOf("allot-1.lab.example", 3001)).toBe("http://allot-1.lab.example:3001");
    expect(listenUrlOf("fd00::5", 3000)).toBe("http://[fd00::5]:3000");
    expect(listenUrlOf("[fd00::5]", 3000)).toBe("http://[fd00::5]:3000");
  });

  it("is localhost for a HOST that listens everywhere, or on loopback, or an empty one", () => {
    for (const host of ["0.0.0.0", "::", "::0", "0:0:0:0:0:0:0:0", "[::]", ""]) {
      expect(listenUrlOf(host, 3000)).toBe("http://localhost:3000");
    }
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "0:0:0:0:0:0:0:1"]) {
      expect(listenUrlOf(host, 8080)).toBe("http://localhost:8080");
    }
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

describe("demoHistoryDays", () => {
  it("is the seed's default when unset, else the whole number of days asked for", () => {
    expect(demoHistoryDays({})).toBeUndefined();
    expect(demoHistoryDays({ ALLOT_DEMO_HISTORY_DAYS: " " })).toBeUndefined();
    expect(demoHistoryDays({ ALLOT_DEMO_HISTORY_DAYS: "2" })).toBe(2);
    expect(demoHistoryDays({ ALLOT_DEMO_HISTORY_DAYS: "365" })).toBe(365);
  });

  it("throws on anything else, naming the variable and the value", () => {
    for (const value of ["0", "1.5", "two", "-3", "366"]) {
      expect(() => demoHistoryDays({ ALLOT_DEMO_HISTORY_DAYS: value })).toThrow(
        `ALLOT_DEMO_HISTORY_DAYS must be a whole number of days from 1 to 365; got "${value}".`,
      );
    }
  });
});

describe("leaseTtlSec", () => {
  it("is the default (30 s) when unset, else the whole number of seconds asked for", () => {
    expect(leaseTtlSec({})).toBeUndefined();
    expect(leaseTtlSec({ ALLOT_LEASE_TTL_SEC: "12" })).toBe(12);
    expect(leaseTtlSec({ ALLOT_LEASE_TTL_SEC: "6" })).toBe(6);
  });

  it("throws on a lease too short to renew safely, too long, or not a number", () => {
    for (const value of ["5", "601", "10s", "7.5"]) {
      expect(() => leaseTtlSec({ ALLOT_LEASE_TTL_SEC: value })).toThrow(
        `ALLOT_LEASE_TTL_SEC must be a whole number of seconds from 6 to 600; got "${value}".`,
      );
    }
  });
});
