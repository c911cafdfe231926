import Link from "next/link";
import { NavLinks } from "./nav-links";
import { SignOutButton } from "./sign-out-button";

export function AppHeader({ userName, role }: { userName: string; role: string }) {
  return (
    <header className="app-header">
      <div className="app-header-inner">
        <Link className="brand" href="/">
          Allot
        </Link>
        <NavLinks />
        <div className="user-box">
          <span>
            Signed in as <strong>{userName}</strong>
          </span>
          <span className="role-badge">{role}</span>
          <Link href="/docs">Help</Link>
          <Link href="/tokens">API tokens</Link>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
