"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/components/confirm/confirm-dialog";
import { cancelConsequence, type CancelFacts } from "@/lib/sentences/consequences";
import { liveTimeFormatter } from "@/lib/format";

type Props = {
  jobId: string;
  jobName: string;
  /** What the confirmation states (GPUs, runtime, protection); a general sentence without. */
  facts?: CancelFacts;
};

function describe(jobName: string, facts: CancelFacts | undefined) {
  if (facts) return cancelConsequence(facts, liveTimeFormatter(facts.nowSec));
  return {
    question: `Cancel job ${jobName}?`,
    consequence:
      "A running job's run ends now and its GPUs go to the next job in the queue; a waiting job leaves the queue.",
  };
}

/**
 * Cancels a job through the API after a confirmation that says what will happen, with an
 * optional reason kept in the job's history; then refreshes the page.
 */
export function CancelButton({ jobId, jobName, facts }: Props) {
  const router = useRouter();
  const [isOpen, setOpen] = useState(false);
  const { question, consequence } = describe(jobName, facts);

  async function cancel(reason: string): Promise<string | null> {
    // Every API write from the browser is JSON (proxy.ts refuses others).
    const response = await fetch(`/api/v1/jobs/${encodeURIComponent(jobId)}/cancel`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(reason ? { reason } : {}),
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as {
        error?: { message?: string };
      } | null;
      return body?.error?.message ?? "The job could not be cancelled.";
    }
    setOpen(false);
    router.refresh();
    return null;
  }

  return (
    <>
      <button
        type="button"
        className="button button-small button-danger"
        aria-label={`Cancel ${jobName}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Cancel
      </button>
      <ConfirmDialog
        isOpen={isOpen}
        title={question}
        confirmLabel="Cancel the job"
        reason={{ label: "Reason, kept in the job's history", isRequired: false }}
        onConfirm={cancel}
        onClose={() => setOpen(false)}
      >
        <p>{consequence}</p>
      </ConfirmDialog>
    </>
  );
}
