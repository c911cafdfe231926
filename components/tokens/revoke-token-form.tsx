"use client";

import { useActionState } from "react";

type Refusable = { ok: true } | { ok: false; error: { message: string } } | null;

type Props<State extends Refusable> = {
  /** Hidden fields the action reads (the token's id, and its cluster for executor tokens). */
  fields: Record<string, string>;
  tokenName: string;
  revokeAction: (state: State, form: FormData) => Promise<State>;
};

/** The Revoke button of one token (personal or executor), with the refusal beside it. */
export function RevokeTokenForm<State extends Refusable>({
  fields,
  tokenName,
  revokeAction,
}: Props<State>) {
  const [state, action, isPending] = useActionState<State, FormData>(
    revokeAction,
    null as Awaited<State>,
  );
  return (
    <form action={action} className="inline-form">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        className="button button-small button-danger"
        type="submit"
        disabled={isPending}
        aria-label={`Revoke token ${tokenName}`}
      >
        Revoke
      </button>
      {state?.ok === false ? (
        <span role="alert" className="field-error">
          {state.error.message}
        </span>
      ) : null}
    </form>
  );
}
