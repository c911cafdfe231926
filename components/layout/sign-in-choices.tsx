"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";

type DemoUser = { email: string; name: string; role: string };

export function SignInChoices({
  demoUsers,
  oidcName,
  callbackUrl,
}: {
  demoUsers: DemoUser[];
  oidcName: string | null;
  callbackUrl: string;
}) {
  const [pending, setPending] = useState<string | null>(null);
  return (
    <>
      {oidcName ? (
        <p>
          <button
            className="button button-primary"
            type="button"
            disabled={pending !== null}
            onClick={() => {
              setPending("oidc");
              void signIn("oidc", { callbackUrl });
            }}
          >
            Sign in with {oidcName}
          </button>
        </p>
      ) : null}
      {demoUsers.length > 0 ? (
        <section aria-labelledby="demo-heading">
          <h2 id="demo-heading">Demo users</h2>
          <p className="muted">Demo mode is on: pick a person to sign in as, no password.</p>
          <ul className="signin-list">
            {demoUsers.map((user) => (
              <li key={user.email}>
                <button
                  className="button"
                  type="button"
                  disabled={pending !== null}
                  aria-label={`Sign in as ${user.name}, ${user.role}`}
                  onClick={() => {
                    setPending(user.email);
                    void signIn("demo", { email: user.email, callbackUrl });
                  }}
                >
                  {/* The space keeps the visible words apart, as in the label (axe). */}
                  <span>{user.name}</span>{" "}
                  <span className="pill">{pending === user.email ? "signing in…" : user.role}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
