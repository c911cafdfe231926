import type { ReactNode } from "react";
import { POLLING_STALE_MS, QueryProvider } from "@/components/providers/query-provider";
// Progress bars, status pills and chart cards are the simulation pages' (a what-if is one).
import "../../../simulations/simulations.css";
import "@/components/what-if/what-if.css";

export default function DraftsLayout({ children }: { children: ReactNode }) {
  return <QueryProvider staleTimeMs={POLLING_STALE_MS}>{children}</QueryProvider>;
}
