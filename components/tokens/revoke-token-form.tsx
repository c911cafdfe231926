"use client";

import { useActionState, useRef, useState } from "react";
import { ConfirmDialog } from "@/components/confirm/confirm-dialog";

type Refusable = { ok: true } | { ok: false; error: { message: string } } | null;

type Props<State extends Refusable> = {
  /** Hidden fields the action reads (the token's id, and its cluster for executor tokens). */
  fields: Record<string, string>;
  tokenName: string;
  /** Who is refused once it is revoked, for the confirmation: "scripts and the command line". */
  usedBy: string;
  revokeAction: (state: State, form: FormData) => Promise<State>;
};

/**
 * The Revoke button of one token (personal or executor), asked first as every other change that
 * cannot be undone, with the refusal beside it.
 */
export function RevokeTokenForm<State extends Refusable>({
  fields,
  tokenName,
  usedBy,
  revokeAction,
}: Props<State>) {
  const [state, action, isPending] = useActionState<State, FormData>(
    revokeAction,
    null as Awaited<State>,
  );
  const [isAsking, setAsking] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  return (
    <>
      <form ref={form} action={action} className="inline-form">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button
          className="button button-small button-danger"
          type="button"
          disabled={isPending}
          aria-haspopup="dialog"
          aria-label={`Revoke token ${tokenName}`}
          onClick={() => setAsking(true)}
        >
          Revoke
        </button>
        {state?.ok === false ? (
          <span role="alert" className="field-error">
            {state.error.message}
          </span>
        ) : null}
      </form>
      <ConfirmDialog
        isOpen={isAsking}
        title={`Revoke token ${tokenName}?`}
        confirmLabel="Revoke the token"
        onConfirm={async () => {
          setAsking(false);
          form.current?.requestSubmit();
          return null;
        }}
        onClose={() => setAsking(false)}
      >
        <p>
          From now on, {usedBy} that send it are refused. This cannot be undone: make a new token to
          replace it.
        </p>
      </ConfirmDialog>
    </>
  );
}
