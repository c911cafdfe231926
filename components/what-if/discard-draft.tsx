"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { discardDraft } from "@/lib/api-client/budgets";
import { ConfirmDialog } from "@/components/confirm/confirm-dialog";

/**
 * "Discard this draft": asks first, then deletes the draft and its what-ifs and opens the node's
 * drafts. The server refuses (409) an adopted draft and one with a what-if still running.
 */
export function DiscardDraft({
  draftId,
  nodeId,
  whatIfCount,
}: {
  draftId: string;
  nodeId: string;
  whatIfCount: number;
}) {
  const router = useRouter();
  const [isAsking, setAsking] = useState(false);
  async function discard(): Promise<string | null> {
    const result = await discardDraft(draftId);
    if (!result.ok) return result.error.message;
    // Back would otherwise show the discarded draft as it was.
    router.refresh();
    router.push(`/budgets/${encodeURIComponent(nodeId)}/drafts`);
    return null;
  }
  return (
    <>
      <button
        type="button"
        className="button"
        aria-haspopup="dialog"
        onClick={() => setAsking(true)}
      >
        Discard this draft
      </button>
      <ConfirmDialog
        isOpen={isAsking}
        title="Discard this draft?"
        confirmLabel="Discard the draft"
        onConfirm={discard}
        onClose={() => setAsking(false)}
      >
        <p>
          The draft is deleted
          {whatIfCount > 0
            ? ` with its ${whatIfCount === 1 ? "what-if" : `${whatIfCount} what-ifs`}`
            : ""}
          . The split in force does not change.
        </p>
      </ConfirmDialog>
    </>
  );
}
