import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppHeader } from "@/components/layout/app-header";
import { QueryProvider } from "@/components/providers/query-provider";
import { getSessionUser } from "@/lib/auth";
import { getRoleLabel } from "@/lib/data/users";
import { REQUESTED_PATH_HEADER, safeReturnPath } from "@/lib/guards/request-guard";

export const dynamic = "force-dynamic";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await getSessionUser();
  if (!user) {
    const back = safeReturnPath((await headers()).get(REQUESTED_PATH_HEADER));
    redirect(back === "/" ? "/signin" : `/signin?callbackUrl=${encodeURIComponent(back)}`);
  }
  const role = await getRoleLabel(user);
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <AppHeader userName={user.name} role={role} />
      <main id="content">
        <QueryProvider>{children}</QueryProvider>
      </main>
    </>
  );
}
