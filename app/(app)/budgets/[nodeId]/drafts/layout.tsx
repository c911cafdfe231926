import type { ReactNode } from "react";
import { QueryProvider } from "@/components/providers/query-provider";
import { POLLING_STALE_MS } from "@/lib/queries/stale-times";
// Progress bars, status pills and chart cards are the simulation pages' (a what-if is one).
import "../../../simulations/simulations.css";
import "@/components/what-if/what-if.css";

export default function DraftsLayout({ children }: { children: ReactNode }) {
  return <QueryProvider staleTimeMs={POLLING_STALE_MS}>{children}</QueryProvider>;
}
