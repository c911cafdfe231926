// What a failed sign-in says, in the app's own words: next-auth's error codes (and the two of
// our sign-in callback) mapped to what went wrong and what an admin should check. Pure, so the
// sign-in error page stays thin and the texts are tested. No secret, no provider message, no
// stack: those go to the server log (JSON lines whose `msg` starts with "sign-in:").

/** The explanation of one error code. */
export type SignInErrorText = {
  title: string;
  /** What went wrong, for the person signing in. */
  message: string;
  /** What an admin should check; empty when nothing on the server needs checking. */
  adminChecks: string[];
};

/** The context the texts name: the provider's label and the app's origin. */
export type SignInErrorContext = { providerName: string; origin: string };

const SERVER_LOG = 'The server\'s log has the details (lines whose msg starts with "sign-in:").';

/**
 * The text for next-auth's `?error=` code. Unknown codes (and none) get a general text, so a
 * code made up in the address bar shows nothing it should not.
 *
 * @example describeSignInError("OAuthCallback", { providerName: "Keycloak", origin: "https://allot.lab.example" }).title
 * // "Keycloak did not accept Allot's sign-in"
 */
export function describeSignInError(
  code: string | undefined,
  { providerName, origin }: SignInErrorContext,
): SignInErrorText {
  const callbackUrl = `${origin}/api/auth/callback/oidc`;
  switch (code) {
    case "OAuthCallback":
      return {
        title: `${providerName} did not accept Allot's sign-in`,
        message:
          `You signed in at ${providerName}, but when Allot asked it to confirm who you are, it ` +
          "refused Allot, or its answer could not be checked. This is a problem with Allot's " +
          "setup, not with your account: trying again will not help until an admin fixes it.",
        adminChecks: [
          "OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are exactly the client id and secret registered " +
            "for Allot at the identity provider (a wrong or expired secret is the usual cause).",
          `The provider lists ${callbackUrl} as a redirect URI of that client.`,
          "The server's clock is right: ID tokens are checked against it.",
          SERVER_LOG,
        ],
      };
    case "OAuthSignin":
      return {
        title: `Allot could not reach ${providerName}`,
        message:
          `The sign-in could not start: Allot could not read ${providerName}'s settings. ` +
          "Try again in a minute; if it keeps failing, tell an admin.",
        adminChecks: [
          "OIDC_ISSUER is the provider's issuer URL, and the server can fetch " +
            "OIDC_ISSUER/.well-known/openid-configuration.",
          SERVER_LOG,
        ],
      };
    case "Callback":
      return {
        title: "The sign-in did not finish",
        message:
          `${providerName} sent you back without signing you in (the sign-in was cancelled or ` +
          "refused there), or Allot could not record it. Try again.",
        adminChecks: [
          "That the person may use Allot at the identity provider.",
          "That the database is up.",
          SERVER_LOG,
        ],
      };
    case "NoEmail":
      return {
        title: `${providerName} sent no email address`,
        message:
          "Allot knows people by their email address, and your identity provider did not send " +
          "one. Tell an admin.",
        adminChecks: [
          "The provider releases the email claim to Allot's client (scopes openid email profile).",
        ],
      };
    case "EmailNotVerified":
      return {
        title: "Your email address is not verified",
        message:
          `${providerName} says your email address is not verified, and Allot gives rights by ` +
          "email address. Verify it with your identity provider, then sign in again.",
        adminChecks: [],
      };
    case "Configuration":
      return {
        title: "Sign-in is not set up correctly",
        message: "Allot's sign-in settings are incomplete. Tell an admin.",
        adminChecks: [
          "NEXTAUTH_SECRET is set, and NEXTAUTH_URL is the address people use to reach Allot.",
          SERVER_LOG,
        ],
      };
    case "AccessDenied":
      return {
        title: "You may not sign in",
        message: "Allot refused this sign-in. Ask an admin if you think you should have access.",
        adminChecks: [SERVER_LOG],
      };
    default:
      return {
        title: "Sign-in failed",
        message: "Something went wrong while signing you in. Try again.",
        adminChecks: [SERVER_LOG],
      };
  }
}
