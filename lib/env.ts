// Environment switches read in one place.

/** Any set of environment variables (process.env by default). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Demo mode: password-free sign-in as the seeded demo users, the seed on start.
 * On by default outside production; in production only when ALLOT_DEMO=1.
 */
export function isDemoMode(env: Env = process.env): boolean {
  const flag = env.ALLOT_DEMO?.trim().toLowerCase();
  if (flag === "1" || flag === "true") return true;
  if (flag === "0" || flag === "false") return false;
  return env.NODE_ENV !== "production";
}

/** The generic OIDC provider, when all three variables are set. */
export function oidcSettings(env: Env = process.env) {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim();
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer, clientId, clientSecret, name: env.OIDC_NAME?.trim() || "Single sign-on" };
}
