import type { Metadata } from "next";
import Link from "next/link";
import { oidcSettings } from "@/lib/env";
import { describeSignInError } from "@/lib/sign-in-errors";

export const metadata: Metadata = { title: "Sign-in failed" };
export const dynamic = "force-dynamic";

// next-auth's error page (lib/auth-options.ts `pages.error`, and /signin sends its errors here):
// what went wrong in plain words and what an admin should check. Never the provider's message.
export default async function SignInErrorPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string | string[] }>;
}) {
  const { error } = await searchParams;
  const text = describeSignInError(typeof error === "string" ? error : undefined, {
    providerName: oidcSettings()?.name ?? "Your identity provider",
    origin: new URL(process.env.NEXTAUTH_URL ?? "http://localhost").origin,
  });
  return (
    <main className="center-page">
      <div className="card signin">
        <h1>{text.title}</h1>
        <p role="alert">{text.message}</p>
        {text.adminChecks.length > 0 ? (
          <section aria-labelledby="admin-checks">
            <h2 id="admin-checks">What an admin should check</h2>
            <ul>
              {text.adminChecks.map((check) => (
                <li key={check}>{check}</li>
              ))}
            </ul>
          </section>
        ) : null}
        <Link className="button button-primary" href="/signin">
          Back to sign-in
        </Link>
      </div>
    </main>
  );
}
