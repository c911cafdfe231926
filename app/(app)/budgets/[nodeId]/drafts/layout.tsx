import type { ReactNode } from "react";
import { QueryProvider } from "@/components/simulations/query-provider";
// Progress bars, status pills and chart cards are the simulation pages' (a what-if is one).
import "../../../simulations/simulations.css";
import "@/components/what-if/what-if.css";

export default function DraftsLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
