import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInChoices } from "@/components/layout/sign-in-choices";
import { getSessionUser } from "@/lib/auth";
import { listDemoUsers, getRoleLabel } from "@/lib/data/users";
import { isDemoMode, oidcSettings } from "@/lib/env";
import { safeReturnPath } from "@/lib/guards/request-guard";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

// The demo picker's refusal is said beside the picker; every other error (next-auth sends its
// sign-in errors here, not to `pages.error`) has its own page that says what an admin checks.
const DEMO_REFUSAL = "Only the demo users sign in without a password.";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string | string[]; callbackUrl?: string | string[] }>;
}) {
  const { error, callbackUrl } = await searchParams;
  if (error && error !== "CredentialsSignin") {
    const code = typeof error === "string" ? error : "";
    redirect(`/signin/error?${new URLSearchParams({ error: code }).toString()}`);
  }
  const safeCallback = safeReturnPath(callbackUrl);
  if (await getSessionUser()) redirect(safeCallback);
  const isDemo = isDemoMode();
  const demoUsers = isDemo
    ? await Promise.all(
        (await listDemoUsers()).map(async (user) => ({
          email: user.email,
          name: user.name,
          role: await getRoleLabel(user),
        })),
      )
    : [];
  const oidc = oidcSettings();
  return (
    <main className="center-page">
      <div className="card signin">
        <h1>Sign in to Allot</h1>
        <p className="muted">GPU-time budgets and fair-share scheduling.</p>
        {error ? (
          <p className="alert" role="alert">
            {DEMO_REFUSAL}
          </p>
        ) : null}
        <SignInChoices
          demoUsers={demoUsers}
          oidcName={oidc?.name ?? null}
          callbackUrl={safeCallback}
        />
        {!isDemo && !oidc ? (
          <p className="alert" role="alert">
            No sign-in method is configured. Set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET,
            or run in demo mode (ALLOT_DEMO=1).
          </p>
        ) : null}
      </div>
    </main>
  );
}
