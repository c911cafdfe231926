"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition, type FormEvent } from "react";
import type { TryPeriod } from "@/lib/validation/try-period";
import { MAX_WEIGHT } from "@/lib/validation/budgets";
import type { FieldIssue } from "@/lib/errors";
import { whatIfHref } from "@/components/what-if/what-if-href";
import { keepWhatIfRefusal } from "@/components/what-if/what-if-refusal";
import {
  saveChildren,
  saveDraft,
  staleState,
  startWhatIf,
  type ChildrenState,
} from "@/lib/api-client/budgets";
import type { ApiError } from "@/lib/api-client/request";
import { ConflictNotice } from "./conflict-notice";
import { SplitActions } from "./split-actions";
import { SplitPreview } from "./split-preview";
import { SplitRows } from "./split-rows";
import { useSplitChecks } from "./split-checks";
import { NewChildWarnings, SplitWarnings } from "./split-warnings";
import {
  rebaseDraft,
  type ClusterRef,
  type DraftChild,
  type NodeRow,
  type SavedSplit,
} from "./tree-model";

/** The box a lead ticks to save a split the editor warns about: the zero split's, or a cut's. */
const ACCEPT_ZERO = "Save it anyway: nobody below is owed GPU time";
const ACCEPT_CUT = "Save it anyway: I mean these weights";

function draftOf(base: SavedSplit): DraftChild[] {
  return base.children.map((child) => ({
    key: child.id,
    id: child.id,
    name: child.name,
    weightText: String(child.weight),
  }));
}

/**
 * Edits a node's children together: weights (number and slider), names, additions and
 * removals, with the engine's live preview of every share below, a required reason, and
 * the conflict screen when someone saved first.
 */
export function SplitEditor({
  node,
  rows,
  clusters,
  tryPeriod = null,
  onClose,
  onSaved,
}: {
  node: NodeRow;
  rows: NodeRow[];
  clusters: ClusterRef[];
  /** The review period the lead came from; else the what-if takes the review's default one. */
  tryPeriod?: TryPeriod | null;
  onClose: () => void;
  /** After a save: the message, and the names of the budgets it added. */
  onSaved: (message: string, newNames: string[]) => void;
}) {
  const router = useRouter();
  const [base, setBase] = useState<SavedSplit>(() => ({
    version: node.version,
    children: rows
      .filter((row) => row.parentId === node.id)
      .map(({ id, name, weight }) => ({ id, name, weight })),
  }));
  const [draft, setDraft] = useState<DraftChild[]>(() => draftOf(base));
  const [reason, setReason] = useState("");
  const [hasTried, setHasTried] = useState(false);
  const [serverIssues, setServerIssues] = useState<FieldIssue[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<ChildrenState | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const [addedCount, setAddedCount] = useState(0);
  // A split the editor warns about is saved only once the lead ticks that they mean it: these
  // warnings, so that a new one (another weight mistyped) asks again.
  const [acceptedWarnings, setAcceptedWarnings] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Each refused save moves the focus to the first field it names, so that its message is heard.
  const [refusalCount, setRefusalCount] = useState(0);
  useEffect(() => {
    if (refusalCount === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusalCount]);
  // Opening the editor moves focus into it: the first weight, or "Add a budget" for a leaf. Without
  // scrolling: in a table wider than the window, scrolling to the weight cut the names off.
  useEffect(() => {
    const form = formRef.current;
    const first = form?.querySelector<HTMLElement>("input.weight-input, button.add-child");
    first?.focus({ preventScroll: true });
  }, []);

  const { body, clientIssues, preview, zeroWarnings, warnings } = useSplitChecks(
    node,
    rows,
    base,
    draft,
    reason,
  );
  const issues = [...clientIssues, ...serverIssues].filter(
    (issue) => hasTried || issue.path !== "reason",
  );
  const removed = base.children.filter((child) => !draft.some((row) => row.id === child.id));
  const acceptLabel = zeroWarnings.length > 0 ? ACCEPT_ZERO : ACCEPT_CUT;
  const isWarningAccepted = acceptedWarnings === warnings.join("\n");

  function update(next: DraftChild[]) {
    setDraft(next);
    setServerIssues([]);
  }

  function showFailure(failure: ApiError) {
    const current = staleState(failure);
    if (current) {
      setConflict(current);
      router.refresh();
      return;
    }
    setServerIssues(failure.issues);
    setError(failure.message);
    setRefusalCount((count) => count + 1);
  }

  /**
   * Keeps the split as a draft (nothing changes in the tree); optionally tries it on the review's
   * default period (`loadDefaultPeriod`, which the what-if takes when given no period).
   */
  function keepDraft(isTrying: boolean) {
    setHasTried(true);
    setError(null);
    if (clientIssues.length > 0) {
      setRefusalCount((count) => count + 1);
      return;
    }
    startTransition(async () => {
      const saved = await saveDraft(node.id, body);
      if (!saved.ok) return showFailure(saved.error);
      const draftId = saved.value.draft.id;
      const draftHref = `/budgets/${encodeURIComponent(node.id)}/drafts/${encodeURIComponent(draftId)}`;
      if (!isTrying) return router.push(draftHref);
      const asked = tryPeriod
        ? { from: tryPeriod.from, to: tryPeriod.to, clusters: tryPeriod.clusters }
        : {};
      const run = await startWhatIf(draftId, asked);
      if (!run.ok) {
        // The draft is kept; its page shows why the what-if was not started.
        keepWhatIfRefusal(draftId, {
          ...asked,
          message: run.error.message,
          issues: run.error.issues,
        });
        return router.push(draftHref);
      }
      router.push(whatIfHref(node.id, draftId, run.value.whatIf.id));
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setHasTried(true);
    setError(null);
    if (clientIssues.length > 0) {
      setRefusalCount((count) => count + 1);
      return;
    }
    if (warnings.length > 0 && !isWarningAccepted) {
      setError(`Tick "${acceptLabel}" to save this split, or change a weight.`);
      return;
    }
    startTransition(async () => {
      const result = await saveChildren(node.id, body);
      if (result.ok) {
        router.refresh();
        const extra = result.value.warnings.length ? ` ${result.value.warnings.join(" ")}` : "";
        const newNames = draft.filter((child) => !child.id).map((child) => child.name.trim());
        onSaved(
          result.value.changed
            ? `Saved the split of ${node.name} (version ${result.value.version}).${extra}`
            : `Nothing to save: the split of ${node.name} is as you sent it (version ${result.value.version}).`,
          newNames,
        );
        return;
      }
      showFailure(result.error);
    });
  }

  return (
    <section className="card editor" aria-labelledby="editor-heading">
      <div className="editor-head">
        <h2 id="editor-heading">Edit split of {node.path || node.name}</h2>
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
      </div>
      {conflict ? (
        <ConflictNotice
          base={base}
          current={conflict}
          draft={draft}
          onReapply={() => {
            update(rebaseDraft(base, conflict, draft));
            setBase(conflict);
            setConflict(null);
            setNote(
              `Your edit now applies on top of version ${conflict.version}. Check the preview, then save again.`,
            );
          }}
          onDiscard={() => {
            update(draftOf(conflict));
            setBase(conflict);
            setConflict(null);
            setNote(`Showing version ${conflict.version}; your edit was discarded.`);
          }}
        />
      ) : null}
      {note ? (
        <p role="status" className="ok-text">
          {note}
        </p>
      ) : null}
      <form ref={formRef} onSubmit={submit} noValidate>
        <SplitRows
          draft={draft}
          base={base}
          preview={preview.ok ? preview.rows : []}
          clusters={clusters}
          issues={issues}
          maxWeight={MAX_WEIGHT}
          onChange={update}
        />
        <button
          type="button"
          className="button add-child"
          onClick={() => {
            setAddedCount(addedCount + 1);
            update([...draft, { key: `new-${addedCount}`, name: "", weightText: "1" }]);
          }}
        >
          Add a budget
        </button>
        {removed.length > 0 ? (
          <p className="warn-text">
            Saving removes {removed.map((child) => child.name).join(", ")} and everything below
            {removed.length === 1 ? " it" : " them"}. Their history and past jobs are kept.
          </p>
        ) : null}
        <NewChildWarnings node={node} draft={draft} />
        <SplitWarnings
          warnings={warnings}
          acceptLabel={acceptLabel}
          isAccepted={isWarningAccepted}
          onAccept={(isAccepted) => setAcceptedWarnings(isAccepted ? warnings.join("\n") : null)}
        />
        <SplitPreview preview={preview} clusters={clusters} />
        <div className="field">
          <label htmlFor="split-reason">Reason for the change (kept in the history)</label>
          <textarea
            id="split-reason"
            rows={2}
            required
            value={reason}
            aria-invalid={issues.some((issue) => issue.path === "reason")}
            aria-describedby="split-reason-error"
            onChange={(event) => setReason(event.target.value)}
          />
          <p id="split-reason-error" className="field-error">
            {issues.find((issue) => issue.path === "reason")?.message}
          </p>
        </div>
        {error ? (
          <p role="alert" className="alert">
            {error}
          </p>
        ) : null}
        <SplitActions
          isPending={isPending}
          isBlocked={conflict !== null}
          tryPeriod={tryPeriod}
          version={base.version}
          onKeepDraft={keepDraft}
        />
      </form>
    </section>
  );
}
