import { describe, expect, it } from "vitest";
import {
  checkWrite,
  classifyPath,
  findBadSegment,
  safeReturnPath,
  type WriteRequest,
} from "./request-guard";

const APP = "https://allot.lab.example";

function request(method: string, pathname: string, headers: Record<string, string>): WriteRequest {
  return { method, pathname, headers: new Headers(headers) };
}

/** A write as Chromium sends it from one of the app's own pages. */
const SAME_ORIGIN = {
  origin: APP,
  "sec-fetch-site": "same-origin",
  "content-type": "application/json",
};

describe("checkWrite on API mutations signed in by cookie", () => {
  it("lets a same-origin JSON write through, with or without Sec-Fetch-Site", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "post"]) {
      expect(checkWrite(request(method, "/api/v1/jobs", SAME_ORIGIN), APP)).toBeNull();
    }
    const withoutFetchMetadata = { origin: APP, "content-type": "application/json; charset=utf-8" };
    expect(checkWrite(request("POST", "/api/v1/jobs", withoutFetchMetadata), APP)).toBeNull();
  });

  it("refuses another origin: a sibling subdomain, another port, another scheme, null", () => {
    for (const origin of [
      "https://evil.lab.example",
      "https://allot.lab.example:8443",
      "http://allot.lab.example",
      "null",
    ]) {
      const refusal = checkWrite(
        request("POST", "/api/v1/clusters/h100/events", { ...SAME_ORIGIN, origin }),
        APP,
      );
      expect(refusal).toEqual({
        code: "forbidden",
        message: `Cross-origin request refused: Origin "${origin}" is not this app's origin "${APP}".`,
      });
    }
  });

  it("refuses a write with no Origin at all", () => {
    expect(
      checkWrite(request("DELETE", "/api/v1/budgets/n1/members", { cookie: "s=1" }), APP),
    ).toEqual({
      code: "forbidden",
      message:
        "A DELETE to the API signed in by cookie must carry an Origin header, as browsers send; " +
        "it has none. Scripts and executors send 'Authorization: Bearer <token>' instead.",
    });
  });

  it("answers 401 to an API write with no token, no cookie and no Origin: a script without its token", () => {
    expect(checkWrite(request("POST", "/api/v1/jobs", {}), APP)).toEqual({
      code: "unauthorized",
      message: "Sign in, or send 'Authorization: Bearer <token>'.",
    });
    // A server action without an Origin stays a 403: it is a browser's.
    expect(checkWrite(request("POST", "/budgets", {}), APP)?.code).toBe("forbidden");
  });

  it("refuses a matching Origin when the browser says the request is cross-site or same-site", () => {
    for (const site of ["cross-site", "same-site", "none"]) {
      expect(
        checkWrite(
          request("POST", "/api/v1/jobs", { ...SAME_ORIGIN, "sec-fetch-site": site }),
          APP,
        ),
      ).toEqual({
        code: "forbidden",
        message: `Cross-site request refused: Sec-Fetch-Site is "${site}", not "same-origin".`,
      });
    }
  });

  it("refuses a same-origin body that is not JSON with 415, and one with no type", () => {
    expect(
      checkWrite(
        request("POST", "/api/v1/jobs", { ...SAME_ORIGIN, "content-type": "text/plain" }),
        APP,
      ),
    ).toEqual({
      code: "unsupported_media_type",
      message:
        "Send the request as JSON with 'Content-Type: application/json'; it was \"text/plain\".",
    });
    const { "content-type": _, ...untyped } = SAME_ORIGIN;
    expect(checkWrite(request("POST", "/api/v1/jobs/j1/cancel", untyped), APP)).toEqual({
      code: "unsupported_media_type",
      message:
        "Send the request as JSON with 'Content-Type: application/json'; it was sent with none.",
    });
    for (const type of [
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
    ]) {
      const headers = { ...SAME_ORIGIN, "content-type": type };
      expect(checkWrite(request("PUT", "/api/v1/jobs", headers), APP)?.code).toBe(
        "unsupported_media_type",
      );
    }
  });

  it("checks the origin before the content type: a cross-site text/plain post is a 403", () => {
    const headers = { origin: "https://evil.example", "content-type": "text/plain" };
    expect(checkWrite(request("POST", "/api/v1/jobs", headers), APP)?.code).toBe("forbidden");
  });

  it("shortens a long Origin it quotes back", () => {
    const origin = `https://${"a".repeat(200)}.example`;
    const message = checkWrite(request("POST", "/api/v1/jobs", { origin }), APP)?.message ?? "";
    expect(message).toContain(`"https://${"a".repeat(72)}…"`);
    expect(message.length).toBeLessThan(200);
  });
});

describe("checkWrite exemptions", () => {
  it("never refuses GET, HEAD or OPTIONS, whatever the origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      const headers = { origin: "https://evil.example", "content-type": "text/plain" };
      expect(checkWrite(request(method, "/api/v1/budgets", headers), APP)).toBeNull();
      expect(checkWrite(request(method, "/clusters/h100/nodes", {}), APP)).toBeNull();
    }
  });

  it("lets bearer-token API calls through with no Origin, leaving the body's type to the route", () => {
    const headers = { authorization: "Bearer allot_c_abc123", "content-type": "text/plain" };
    expect(checkWrite(request("POST", "/api/v1/clusters/h100/events", headers), APP)).toBeNull();
    expect(
      checkWrite(request("POST", "/api/v1/jobs", { authorization: "bearer allot_p_x" }), APP),
    ).toBeNull();
  });

  it("does not take an Authorization header that is not a bearer token as one", () => {
    const headers = { authorization: "Basic dXNlcjpwYXNz", "content-type": "application/json" };
    // Refused (401: neither a token nor a browser), not let through as a bearer call.
    expect(checkWrite(request("POST", "/api/v1/jobs", headers), APP)?.code).toBe("unauthorized");
    const empty = { authorization: "Bearer ", "content-type": "application/json" };
    expect(checkWrite(request("POST", "/api/v1/jobs", empty), APP)?.code).toBe("unauthorized");
    // With a cookie, it is a browser's write: the Origin rules apply.
    const cookied = { ...headers, cookie: "s=1" };
    expect(checkWrite(request("POST", "/api/v1/jobs", cookied), APP)?.code).toBe("forbidden");
  });

  it("leaves next-auth's routes to next-auth (its own CSRF token, the IdP's callbacks)", () => {
    expect(checkWrite(request("POST", "/api/auth/callback/demo", {}), APP)).toBeNull();
    expect(
      checkWrite(request("POST", "/api/auth/callback/oidc", { origin: "https://id.example" }), APP),
    ).toBeNull();
  });
});

describe("checkWrite on server actions (POSTs to page paths)", () => {
  const action = { "next-action": "7f00aa", "content-type": "text/plain;charset=UTF-8" };

  it("lets a same-origin action through, whatever its body type", () => {
    const headers = { ...action, origin: APP, "sec-fetch-site": "same-origin" };
    expect(checkWrite(request("POST", "/clusters/h100/nodes", headers), APP)).toBeNull();
    const form = { origin: APP, "content-type": "multipart/form-data; boundary=x" };
    expect(checkWrite(request("POST", "/", form), APP)).toBeNull();
  });

  it("refuses an action with no Origin, or another one, bearer token or not", () => {
    expect(checkWrite(request("POST", "/clusters/h100/nodes", action), APP)).toEqual({
      code: "forbidden",
      message:
        "A server action must carry an Origin header, as browsers send; it has none. " +
        "Scripts and executors send 'Authorization: Bearer <token>' instead.",
    });
    const bearer = { ...action, authorization: "Bearer allot_p_x" };
    expect(checkWrite(request("POST", "/clusters/h100/nodes", bearer), APP)?.code).toBe(
      "forbidden",
    );
    const evil = { ...action, origin: "http://localhost:3999" };
    expect(checkWrite(request("POST", "/clusters/h100/nodes", evil), APP)?.message).toBe(
      `Cross-origin request refused: Origin "http://localhost:3999" is not this app's origin "${APP}".`,
    );
  });
});

describe("classifyPath", () => {
  it("tells the API, next-auth and pages apart by whole segments", () => {
    expect(classifyPath("/api/v1")).toBe("api");
    expect(classifyPath("/api/v1/jobs")).toBe("api");
    expect(classifyPath("/api/v10/jobs")).toBe("page");
    expect(classifyPath("/api/auth/signout")).toBe("auth");
    expect(classifyPath("/api/authors")).toBe("page");
    expect(classifyPath("/")).toBe("page");
  });
});

describe("findBadSegment", () => {
  const malformed = (segment: string) => ({ segment, problem: "is not valid percent-encoding" });

  it("names the first segment with malformed percent-encoding", () => {
    expect(findBadSegment("/api/v1/jobs/%E0%A4%A")).toEqual(malformed("%E0%A4%A"));
    expect(findBadSegment("/api/v1/jobs/%zz/cancel")).toEqual(malformed("%zz"));
    expect(findBadSegment("/api/v1/jobs/50%")).toEqual(malformed("50%"));
    expect(findBadSegment("/api/v1/budgets/%C0%AF/%zz")).toEqual(malformed("%C0%AF"));
  });

  it("names a segment that decodes to a NUL", () => {
    const nul = (segment: string) => ({ segment, problem: "decodes to a NUL character" });
    expect(findBadSegment("/api/v1/jobs/%00")).toEqual(nul("%00"));
    expect(findBadSegment("/api/v1/jobs/abc%00def/cancel")).toEqual(nul("abc%00def"));
  });

  it("accepts plain and well-encoded segments, an encoded slash and non-ASCII text", () => {
    expect(findBadSegment("/api/v1/jobs/cmf2x9")).toBeNull();
    expect(findBadSegment("/api/v1/clusters/h%31%30%30/queue")).toBeNull();
    expect(findBadSegment("/api/v1/jobs/a%2Fb")).toBeNull();
    expect(findBadSegment("/api/v1/jobs/%E0%A4%A8")).toBeNull();
    expect(findBadSegment("/api/v1/")).toBeNull();
  });
});

describe("safeReturnPath", () => {
  it("keeps a path of this app with its query", () => {
    expect(safeReturnPath("/review?month=2026-11")).toBe("/review?month=2026-11");
    expect(safeReturnPath("/")).toBe("/");
    expect(safeReturnPath("/docs/ranking.md#the-queue")).toBe("/docs/ranking.md#the-queue");
  });

  it("turns another site, a scheme or nothing into /", () => {
    for (const path of [
      "//evil.example/x",
      "/\\evil.example",
      // Browsers drop the tab, then read "//evil.example" (callbackUrl=/%09/evil.example).
      "/\t/evil.example",
      "/\n/evil.example",
      "https://evil.example",
      "jobs",
      "",
      null,
      ["/a", "/b"],
    ]) {
      expect(safeReturnPath(path)).toBe("/");
    }
  });
});
