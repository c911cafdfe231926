"use client";

import { useEffect } from "react";

/**
 * Marks the document once React has hydrated it (`<html data-hydrated>`). A control rendered on
 * the server shows before then and does nothing when pressed; the e2e tests wait for the mark
 * before they press keys or click.
 */
export function HydrationMark(): null {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
