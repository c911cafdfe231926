"use client";

import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button
      className="button button-quiet"
      type="button"
      onClick={() => void signOut({ callbackUrl: "/signin" })}
    >
      Sign out
    </button>
  );
}
