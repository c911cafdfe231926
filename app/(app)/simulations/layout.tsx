import type { ReactNode } from "react";
import { QueryProvider } from "@/components/providers/query-provider";
import { POLLING_STALE_MS } from "@/lib/queries/stale-times";
import "./simulations.css";

export default function SimulationsLayout({ children }: { children: ReactNode }) {
  return <QueryProvider staleTimeMs={POLLING_STALE_MS}>{children}</QueryProvider>;
}
