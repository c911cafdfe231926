"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { APP_STALE_MS } from "@/lib/queries/stale-times";

/**
 * A browser query client for the pages below it, made once per mount (the server makes one
 * per request). The app layout holds one with the default staleTime; the simulation and
 * what-if layouts nest their own with `staleTimeMs={POLLING_STALE_MS}`, which also gives those
 * pages a cache that is dropped when the section is left, so coming back shows the server's
 * fresh seed (PrefetchedQueries).
 */
export function QueryProvider({
  children,
  staleTimeMs = APP_STALE_MS,
}: {
  children: ReactNode;
  staleTimeMs?: number;
}) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: staleTimeMs, retry: 1 } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
