// next-auth configuration: demo sign-in (demo mode only) and a generic OIDC provider
// (docs/decisions/004-auth.md, 080-csrf-and-demo-mode.md). Sessions are JWTs carrying our user id.
import type { LoggerInstance, NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { findDemoUser, findUserByEmail, signInSsoUser } from "./data/users";
import { DEMO_USERS } from "./demo/lab-org";
import { adminEmails, isDemoMode, oidcSettings, type Env } from "./env";
import { getLogger } from "./log/logger";

/** The only accounts the demo provider signs in: the four seeded demo users. */
const DEMO_EMAILS: ReadonlySet<string> = new Set(
  Object.values(DEMO_USERS).map((user) => user.email),
);

/**
 * The demo provider's check: one of the four demo users by their seeded email, and only while
 * their row is still marked as a demo user. Any other account (an admin, a lab member, a
 * person who signed in through OIDC) gets null, so next-auth refuses the sign-in.
 */
export async function authorizeDemoUser(
  credentials: { email?: string } | undefined,
): Promise<{ id: string; email: string; name: string } | null> {
  const email = credentials?.email?.trim().toLowerCase();
  if (!email || !DEMO_EMAILS.has(email)) return null;
  const user = await findDemoUser(email);
  return user ? { id: user.id, email: user.email, name: user.name } : null;
}

function providers(env: Env): NextAuthOptions["providers"] {
  const list: NextAuthOptions["providers"] = [];
  if (isDemoMode(env)) {
    list.push(
      CredentialsProvider({
        id: "demo",
        name: "Demo user",
        credentials: { email: { label: "Email", type: "email" } },
        authorize: authorizeDemoUser,
      }),
    );
  }
  const oidc = oidcSettings(env);
  if (oidc) {
    list.push({
      id: "oidc",
      name: oidc.name,
      type: "oauth",
      wellKnown: `${oidc.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
      clientId: oidc.clientId,
      clientSecret: oidc.clientSecret,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      profile(profile: { sub: string; email?: string; name?: string }) {
        return {
          id: profile.sub,
          email: profile.email ?? null,
          name: profile.name ?? profile.email ?? null,
        };
      },
    });
  }
  return list;
}

/**
 * next-auth's own messages (a provider's refusal, say) as the server's JSON log lines, with the
 * logger's redaction, instead of its multi-line console text (docs/operations.md).
 */
export const AUTH_LOGGER: LoggerInstance = {
  error(code, metadata) {
    const err = metadata instanceof Error ? metadata : metadata.error;
    const detail = metadata instanceof Error ? {} : { ...metadata, error: undefined };
    getLogger().error({ authCode: code, err, ...detail }, `sign-in: ${code}`);
  },
  warn(code) {
    getLogger().warn({ authCode: code }, `sign-in: ${code}`);
  },
  debug(code, metadata) {
    getLogger().debug({ authCode: code, metadata }, `sign-in: ${code}`);
  },
};

export function authOptions(env: Env = process.env): NextAuthOptions {
  return {
    providers: providers(env),
    logger: AUTH_LOGGER,
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    // next-auth sends sign-in errors (OAuthCallback...) to signIn, the others to error; the
    // sign-in page passes its errors on to the error page (app/signin/error).
    pages: { signIn: "/signin", error: "/signin/error" },
    callbacks: {
      async signIn({ user, account, profile }) {
        if (account?.provider !== "oidc") return true;
        if (!user.email) return "/signin/error?error=NoEmail";
        // Rights (ALLOT_ADMINS, leads) go by email: an address the provider says it has not
        // verified could be anyone's. Providers that send no email_verified are trusted.
        if ((profile as { email_verified?: unknown } | undefined)?.email_verified === false) {
          return "/signin/error?error=EmailNotVerified";
        }
        const signedIn = await signInSsoUser(user.email, user.name ?? user.email, adminEmails(env));
        getLogger().info({ userId: signedIn.id, isAdmin: signedIn.isAdmin }, "signed in");
        return true;
      },
      async jwt({ token, user }) {
        if (user?.email) {
          const row = await findUserByEmail(user.email);
          if (row) token.userId = row.id;
        }
        return token;
      },
      async session({ session, token }) {
        if (typeof token.userId === "string") session.userId = token.userId;
        return session;
      },
    },
  };
}
