"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/** Cancels a job through the API, then refreshes the page. */
export function CancelButton({ jobId, jobName }: { jobId: string; jobName: string }) {
  const router = useRouter();
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function cancel() {
    setBusy(true);
    setError(null);
    // Every API write from the browser is JSON (proxy.ts refuses others), even with nothing to say.
    const response = await fetch(`/api/v1/jobs/${encodeURIComponent(jobId)}/cancel`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as {
        error?: { message?: string };
      } | null;
      setError(body?.error?.message ?? "The job could not be cancelled.");
    }
    setBusy(false);
    router.refresh();
  }
  return (
    <span className="inline-form">
      <button
        type="button"
        className="button button-small button-danger"
        disabled={isBusy}
        aria-label={`Cancel ${jobName}`}
        onClick={() => void cancel()}
      >
        {isBusy ? "Cancelling…" : "Cancel"}
      </button>
      {error ? (
        <span role="alert" className="field-error">
          {error}
        </span>
      ) : null}
    </span>
  );
}
