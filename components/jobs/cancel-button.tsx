"use client";

import { useState } from "react";
import { cancelJob } from "@/lib/api-client/jobs";
import { ConfirmDialog } from "@/components/confirm/confirm-dialog";
import { cancelConsequence, type CancelFacts } from "@/lib/sentences/consequences";
import { liveTimeFormatter } from "@/lib/format";

type Props = {
  jobId: string;
  jobName: string;
  /** What the confirmation states (GPUs, runtime, protection); a general sentence without. */
  facts?: CancelFacts;
  /** After the cancel: refetch the queries that show the job. */
  onCancelled: () => unknown;
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
 * optional reason kept in the job's history; then refreshes what shows the job.
 */
export function CancelButton({ jobId, jobName, facts, onCancelled }: Props) {
  const [isOpen, setOpen] = useState(false);
  const { question, consequence } = describe(jobName, facts);

  async function cancel(reason: string): Promise<string | null> {
    const result = await cancelJob(jobId, reason);
    if (!result.ok) return result.error.message;
    setOpen(false);
    await onCancelled();
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
