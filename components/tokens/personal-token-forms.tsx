"use client";

import { useActionState } from "react";
import { CopyButton } from "./copy-button";
import { RevokeTokenForm } from "./revoke-token-form";
import type { PersonalTokenState, RevokePersonalTokenState } from "@/app/(app)/tokens/actions";

type CreateProps = {
  createAction: (state: PersonalTokenState, form: FormData) => Promise<PersonalTokenState>;
};

const EXPIRY_CHOICES = [
  { days: "30", label: "in 30 days" },
  { days: "90", label: "in 90 days" },
  { days: "365", label: "in a year" },
  { days: "", label: "never" },
];

/** Creates a personal token and shows it once; bad input shows as an alert. */
export function CreatePersonalTokenForm({ createAction }: CreateProps) {
  const [state, action, isPending] = useActionState(createAction, null);
  const error = state?.ok === false ? state.error : null;
  const nameError = error?.fieldErrors.name;
  return (
    <div>
      <form action={action} className="inline-form">
        <label htmlFor="token-name">Token name</label>
        <input
          id="token-name"
          name="name"
          type="text"
          placeholder="laptop cli"
          required
          aria-invalid={nameError ? true : undefined}
          aria-describedby={error ? "token-error" : undefined}
        />
        <label htmlFor="token-expiry">Expires</label>
        <select id="token-expiry" name="expiresInDays" defaultValue="90">
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice.days} value={choice.days}>
              {choice.label}
            </option>
          ))}
        </select>
        <button className="button" type="submit" disabled={isPending}>
          Create token
        </button>
      </form>
      {error ? (
        <p id="token-error" role="alert" className="field-error">
          {nameError ?? error.fieldErrors.expiresInDays ?? error.message}
        </p>
      ) : null}
      {state?.ok ? (
        <div role="status">
          <p>
            Token <strong>{state.data.name}</strong> created
            {state.data.expiresAt
              ? `, valid until ${state.data.expiresAt.slice(0, 10)}`
              : ", with no expiry"}
            . Copy it now: it is shown only once and stored only as a hash.
          </p>
          <p className="token-once" aria-label="New token">
            {state.data.token}
          </p>
          <CopyButton text={state.data.token} label="Copy the token" />
          <p className="muted small">
            For the command line: <code>export ALLOT_TOKEN=…</code> and <code>ALLOT_SERVER</code>{" "}
            this server&apos;s address, or both in <code>~/.config/allot/config.json</code> (docs:
            command line).
          </p>
        </div>
      ) : null}
    </div>
  );
}

type RevokeProps = {
  tokenId: string;
  tokenName: string;
  revokeAction: (
    state: RevokePersonalTokenState,
    form: FormData,
  ) => Promise<RevokePersonalTokenState>;
};

/** The Revoke button of one token, with the refusal (if any) beside it. */
export function RevokePersonalTokenForm({ tokenId, tokenName, revokeAction }: RevokeProps) {
  return (
    <RevokeTokenForm
      fields={{ tokenId }}
      tokenName={tokenName}
      usedBy="scripts and the command line"
      revokeAction={revokeAction}
    />
  );
}
