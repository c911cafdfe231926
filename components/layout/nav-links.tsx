"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Overview" },
  { href: "/budgets", label: "Budgets" },
  { href: "/clusters", label: "Clusters" },
  { href: "/jobs", label: "Jobs" },
  { href: "/queue", label: "Queues" },
  { href: "/review", label: "Review" },
  { href: "/simulations", label: "Simulations" },
];

export function NavLinks() {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Main">
      {LINKS.map((link) => {
        const isCurrent = link.href === "/" ? pathname === "/" : pathname.startsWith(link.href);
        return (
          <Link key={link.href} href={link.href} aria-current={isCurrent ? "page" : undefined}>
            {link.label}
          </Link>
        );
      })}
    </nav>
  );
}
