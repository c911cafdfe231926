import { describe, expect, it } from "vitest";
import { describeSignInError } from "./sign-in-errors";

const context = { providerName: "Keycloak", origin: "https://allot.lab.example" };

describe("describeSignInError", () => {
  it("OAuthCallback (a wrong client secret): the provider refused Allot; check id, secret, redirect URI", () => {
    const text = describeSignInError("OAuthCallback", context);
    expect(text.title).toBe("Keycloak did not accept Allot's sign-in");
    expect(text.message).toContain("not with your account");
    expect(text.adminChecks[0]).toContain("OIDC_CLIENT_ID and OIDC_CLIENT_SECRET");
    expect(text.adminChecks[1]).toBe(
      "The provider lists https://allot.lab.example/api/auth/callback/oidc as a redirect URI of that client.",
    );
  });

  it("OAuthSignin (the issuer cannot be read): check OIDC_ISSUER", () => {
    const text = describeSignInError("OAuthSignin", context);
    expect(text.title).toBe("Allot could not reach Keycloak");
    expect(text.adminChecks[0]).toContain("OIDC_ISSUER");
  });

  it("our own codes: no email sent, an email the provider says is unverified", () => {
    expect(describeSignInError("NoEmail", context).title).toBe("Keycloak sent no email address");
    expect(describeSignInError("EmailNotVerified", context)).toEqual({
      title: "Your email address is not verified",
      message:
        "Keycloak says your email address is not verified, and Allot gives rights by email " +
        "address. Verify it with your identity provider, then sign in again.",
      adminChecks: [],
    });
  });

  it("an unknown, made-up or missing code gets the general text and echoes nothing", () => {
    for (const code of [undefined, "", "<script>alert(1)</script>", "Default"]) {
      const text = describeSignInError(code, context);
      expect(text.title).toBe("Sign-in failed");
      expect(JSON.stringify(text)).not.toContain("script");
    }
  });
});
