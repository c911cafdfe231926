"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Re-renders the server page every few seconds: only for the live pages that have no API route
 * and query yet (the jobs list, all queues). Live data is a polled query otherwise
 * (docs/decisions/094-one-way-to-refresh.md).
 */
export function AutoRefresh({ seconds = 5 }: { seconds?: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), seconds * 1000);
    return () => clearInterval(timer);
  }, [router, seconds]);
  return null;
}
