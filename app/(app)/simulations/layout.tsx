import type { ReactNode } from "react";
import { QueryProvider } from "@/components/simulations/query-provider";
import "./simulations.css";

export default function SimulationsLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
