// next-auth configuration: demo sign-in (demo mode only) and a generic OIDC provider
// (docs/decisions/004-auth.md). Sessions are JWTs carrying our user id.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { findUserByEmail, upsertSsoUser } from "./data/users";
import { isDemoMode, oidcSettings } from "./env";

function providers(): NextAuthOptions["providers"] {
  const list: NextAuthOptions["providers"] = [];
  if (isDemoMode()) {
    list.push(
      CredentialsProvider({
        id: "demo",
        name: "Demo user",
        credentials: { email: { label: "Email", type: "email" } },
        async authorize(credentials) {
          const email = credentials?.email?.trim().toLowerCase();
          if (!email) return null;
          const user = await findUserByEmail(email);
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        },
      }),
    );
  }
  const oidc = oidcSettings();
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

export function authOptions(): NextAuthOptions {
  return {
    providers: providers(),
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/signin", error: "/signin" },
    callbacks: {
      async signIn({ user, account }) {
        if (account?.provider !== "oidc") return true;
        if (!user.email) return "/signin?error=NoEmail";
        await upsertSsoUser(user.email, user.name ?? user.email);
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
