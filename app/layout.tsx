import type { Metadata } from "next";
import type { ReactNode } from "react";
import { HydrationMark } from "@/components/layout/hydration-mark";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Allot", template: "%s · Allot" },
  description: "GPU-time budgets and fair-share scheduling for research clusters",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        {children}
        <HydrationMark />
      </body>
    </html>
  );
}
