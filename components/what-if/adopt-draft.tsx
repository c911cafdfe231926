"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { staleState, type ChildrenState } from "@/components/budget-tree/budget-api";
import { formatWeight } from "@/lib/format";
import { adoptDraft } from "./what-if-api";

/**
 * "Adopt this split": saves the draft through the normal edit (one history entry) and opens
 * the history. A split changed since the draft is refused (409) and shown as saved now.
 */
export function AdoptDraft({
  draftId,
  nodeId,
  adoptedAt,
  isStale,
  basedOnVersion,
  currentVersion,
  currentChildren,
}: {
  draftId: string;
  nodeId: string;
  adoptedAt: string | null;
  isStale: boolean;
  basedOnVersion: number;
  currentVersion: number;
  currentChildren: { id: string; name: string; weight: number }[];
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<ChildrenState | null>(
    isStale
      ? { nodeId, name: "", version: currentVersion, children: currentChildren, lastChange: null }
      : null,
  );
  const [isPending, startTransition] = useTransition();
  if (adoptedAt) {
    return (
      <p className="ok-text" role="status">
        Adopted on {adoptedAt.slice(0, 16).replace("T", " ")} UTC.{" "}
        <a href={`/budgets/${encodeURIComponent(nodeId)}/history`}>See the history</a>
      </p>
    );
  }
  function adopt() {
    setError(null);
    startTransition(async () => {
      const result = await adoptDraft(draftId);
      if (result.ok) {
        router.push(`/budgets/${encodeURIComponent(nodeId)}/history`);
        return;
      }
      const current = staleState(result.error);
      if (current) setConflict(current);
      setError(result.error.message);
    });
  }
  return (
    <div className="editor-actions">
      {conflict ? (
        <div className="alert" role="alert">
          <p>
            The split changed since this draft was made (draft of version {basedOnVersion}, now
            version {conflict.version}), so it cannot be adopted as it is. The split in force:{" "}
            {conflict.children
              .map((child) => `${child.name} ${formatWeight(child.weight)}`)
              .join(" · ")}
            . Make a new draft from the budget tree.
          </p>
        </div>
      ) : null}
      {error && !conflict ? (
        <p className="alert" role="alert">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        className="button button-primary"
        disabled={isPending || conflict !== null}
        onClick={adopt}
      >
        {isPending ? "Adopting…" : "Adopt this split"}
      </button>
      <span className="muted small">
        Saves it as an edit of version {basedOnVersion}, with a history entry naming this draft.
      </span>
    </div>
  );
}
