"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { adoptDraft, staleState, type ChildrenState } from "@/lib/api-client/budgets";
import { ConfirmDialog } from "@/components/confirm/confirm-dialog";
import { formatDateTime, formatWeight } from "@/lib/format";
import { splitChanges } from "@/lib/sentences/consequences";
import { ADOPT_REASON_MESSAGE } from "@/lib/validation/oversight";

/**
 * "Adopt this split": asks first, listing the weights that change and a required reason, then
 * saves the draft through the normal edit (one history entry) and opens the history. A split
 * changed since the draft is refused (409) and shown as saved now.
 */
export function AdoptDraft({
  draftId,
  nodeId,
  nodeName,
  proposed,
  adoptedAt,
  isStale,
  basedOnVersion,
  currentVersion,
  currentChildren,
}: {
  draftId: string;
  nodeId: string;
  nodeName: string;
  proposed: { id?: string; name: string; weight: number }[];
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
  const [isAsking, setAsking] = useState(false);
  if (adoptedAt) {
    return (
      <p className="ok-text" role="status">
        Adopted on {formatDateTime(adoptedAt)}.{" "}
        <a href={`/budgets/${encodeURIComponent(nodeId)}/history`}>See the history</a>
      </p>
    );
  }
  async function adopt(reason: string): Promise<string | null> {
    setError(null);
    const result = await adoptDraft(draftId, reason);
    if (result.ok) {
      // Pages kept for Back (this one, the tree) would show the split before the adoption.
      router.refresh();
      router.push(`/budgets/${encodeURIComponent(nodeId)}/history`);
      return null;
    }
    const current = staleState(result.error);
    if (current) {
      setConflict(current);
      setAsking(false);
      setError(result.error.message);
      return null;
    }
    return (
      result.error.issues.find((issue) => issue.path === "reason")?.message ?? result.error.message
    );
  }
  const changes = splitChanges(currentChildren, proposed);
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
        disabled={conflict !== null}
        aria-haspopup="dialog"
        onClick={() => setAsking(true)}
      >
        Adopt this split
      </button>
      <ConfirmDialog
        isOpen={isAsking}
        title={`Adopt this split of ${nodeName}?`}
        confirmLabel="Adopt the split"
        reason={{
          label: "Why this split (kept in the budget's history)",
          isRequired: true,
          requiredMessage: ADOPT_REASON_MESSAGE,
        }}
        onConfirm={adopt}
        onClose={() => setAsking(false)}
      >
        <p>
          It is in force at once: every share below {nodeName} changes on every cluster, and the
          scheduler ranks by the new shares from its next pass.
        </p>
        {changes.length === 0 ? (
          <p>No weight changes: the split is the one in force.</p>
        ) : (
          <ul>
            {changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        )}
      </ConfirmDialog>
      <span className="muted small">
        Saves it as an edit of version {basedOnVersion}, with a history entry naming this draft.
      </span>
    </div>
  );
}
