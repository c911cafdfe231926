"use client";

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import "./confirm-dialog.css";

export type ReasonField = {
  label: string;
  /** Drains and adoptions need one; cancels do not. */
  isRequired: boolean;
  /** Shown when a required reason is left empty (the server says the same, 422). */
  requiredMessage?: string;
};

type Props = {
  isOpen: boolean;
  title: string;
  /** What will happen, concretely: which job, which runs, which weights. */
  children: ReactNode;
  confirmLabel: string;
  /** Absent: no reason is asked for (nothing would keep it). */
  reason?: ReasonField;
  /** Does the work; resolves to an error message to show, or null when done. */
  onConfirm: (reason: string) => Promise<string | null>;
  onClose: () => void;
};

/**
 * A modal confirmation on the native `<dialog>`: the page behind is inert (focus stays in the
 * dialog), Escape closes it, it is labelled by its title and described by what will happen,
 * focus starts in the reason field when there is one, and returns to the button that opened it.
 */
export function ConfirmDialog({
  isOpen,
  title,
  children,
  confirmLabel,
  reason,
  onConfirm,
  onClose,
}: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) {
      dialog.showModal();
      // showModal focuses the first focusable element, often a link in the description; the
      // reason is what the person came to write.
      reasonRef.current?.focus();
    }
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = text.trim();
    if (reason?.isRequired && trimmed === "") {
      setError(reason.requiredMessage ?? "Give a reason.");
      return;
    }
    setBusy(true);
    setError(null);
    const failure = await onConfirm(trimmed);
    setBusy(false);
    if (failure) setError(failure);
    else setText("");
  }

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-what`}
      onClose={onClose}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <h2 id={`${id}-title`}>{title}</h2>
        <div id={`${id}-what`} className="confirm-what">
          {children}
        </div>
        {reason ? (
          <div className="field">
            <label htmlFor={`${id}-reason`}>
              {reason.label}
              {reason.isRequired ? " (required)" : " (optional)"}
            </label>
            <textarea
              ref={reasonRef}
              id={`${id}-reason`}
              rows={2}
              value={text}
              required={reason.isRequired}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
        ) : null}
        {error ? (
          <p id={`${id}-error`} role="alert" className="field-error">
            {error}
          </p>
        ) : null}
        <div className="editor-actions">
          <button type="submit" className="button button-danger" disabled={isBusy}>
            {isBusy ? "Working…" : confirmLabel}
          </button>
          <button type="button" className="button" disabled={isBusy} onClick={onClose}>
            Keep as is
          </button>
        </div>
      </form>
    </dialog>
  );
}
