"use client";

import { useState } from "react";

/** Copies `text` to the clipboard and says so (or says to copy by hand when it cannot). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [result, setResult] = useState<string | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setResult("Copied to the clipboard.");
    } catch {
      setResult("The browser did not allow copying: select the token and copy it.");
    }
  }
  return (
    <span className="inline-form">
      <button type="button" className="button button-small" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="field-hint">
        {result}
      </span>
    </span>
  );
}
