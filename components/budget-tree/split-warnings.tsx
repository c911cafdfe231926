// What the split editor warns about before a save: budgets it adds, a leaf it makes a parent,
// and a split the lead must confirm they mean (every weight 0, or a sharp cut).
import type { DraftChild, NodeRow } from "./tree-model";

function jobCount(count: number, state: string): string {
  return `${count} ${state} ${count === 1 ? "job" : "jobs"}`;
}

/**
 * What adding budgets means before it is saved: new budgets get their share at once but
 * nobody can charge them until a member is added; a leaf that becomes a parent is no longer
 * charged, and while it has pending or running jobs the save is refused (ADR 030).
 */
export function NewChildWarnings({ node, draft }: { node: NodeRow; draft: DraftChild[] }) {
  const added = draft.filter((child) => !child.id);
  const open = node.openJobs;
  return (
    <>
      {added.length > 0 ? (
        <p className="warn-text" role="status">
          {added.length === 1 ? "The new budget gets" : `The ${added.length} new budgets get`}{" "}
          {added.length === 1 ? "its" : "their"} share at once, but nobody can use{" "}
          {added.length === 1 ? "it" : "them"} until a member or lead is added: after saving, add
          people with the offer that appears here.
        </p>
      ) : null}
      {node.isLeaf && draft.length > 0 ? (
        <p className="warn-text" role="status">
          Saving makes {node.name} a parent: only budgets without sub-budgets are charged.
          {node.members.length > 0
            ? ` Its ${node.members.length} members charge the new budgets once you add them there.`
            : ""}
          {open
            ? ` ${node.name} has ${[
                open.pending > 0 ? jobCount(open.pending, "pending") : null,
                open.running > 0 ? jobCount(open.running, "running") : null,
              ]
                .filter(Boolean)
                .join(
                  " and ",
                )}: queued work must not end up on a parent, so the save is refused until they finish or are cancelled.`
            : ""}
        </p>
      ) : null}
    </>
  );
}

/** The warnings a save needs confirmed, and the box that confirms them (none: nothing shown). */
export function SplitWarnings({
  warnings,
  acceptLabel,
  isAccepted,
  onAccept,
}: {
  warnings: string[];
  acceptLabel: string;
  isAccepted: boolean;
  onAccept: (isAccepted: boolean) => void;
}) {
  return (
    <>
      {warnings.map((warning) => (
        <p key={warning} className="warn-text" role="status">
          {warning}
        </p>
      ))}
      {warnings.length > 0 ? (
        <div className="field">
          <label>
            <input
              type="checkbox"
              checked={isAccepted}
              onChange={(event) => onAccept(event.target.checked)}
            />{" "}
            {acceptLabel}
          </label>
        </div>
      ) : null}
    </>
  );
}
