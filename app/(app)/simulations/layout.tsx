import type { ReactNode } from "react";
import { POLLING_STALE_MS, QueryProvider } from "@/components/providers/query-provider";
import "./simulations.css";

export default function SimulationsLayout({ children }: { children: ReactNode }) {
  return <QueryProvider staleTimeMs={POLLING_STALE_MS}>{children}</QueryProvider>;
}
