// The split editor's buttons: save, keep as a draft, or keep as a draft and try it on a period.
import type { TryPeriod } from "@/lib/validation/try-period";

/** Save, Save as draft, Try on the period; disabled while saving or while a conflict is shown. */
export function SplitActions({
  isPending,
  isBlocked,
  tryPeriod,
  version,
  onKeepDraft,
}: {
  isPending: boolean;
  /** Someone saved first: the conflict screen decides before anything is sent. */
  isBlocked: boolean;
  tryPeriod: TryPeriod | null;
  version: number;
  onKeepDraft: (isTrying: boolean) => void;
}) {
  return (
    <div className="editor-actions">
      <button type="submit" className="button button-primary" disabled={isPending || isBlocked}>
        {isPending ? "Saving…" : "Save split"}
      </button>
      <button
        type="button"
        className="button"
        disabled={isPending || isBlocked}
        onClick={() => onKeepDraft(false)}
      >
        Save as draft
      </button>
      <button
        type="button"
        className="button"
        disabled={isPending || isBlocked}
        onClick={() => onKeepDraft(true)}
        title={
          tryPeriod
            ? `Keep this split as a draft and replay under it the demand of ${tryPeriod.label}, the review period you came from`
            : "Keep this split as a draft and replay under it the demand of the review's default period: the last full month once the roll-ups cover it, else the 30 whole days before today"
        }
      >
        {tryPeriod ? `Try on ${tryPeriod.label}` : "Try on the review period"}
      </button>
      <span className="muted small">Editing version {version}.</span>
    </div>
  );
}
