"use client";

import { useActionState } from "react";
import { CopyButton } from "@/components/tokens/copy-button";
import { RevokeTokenForm as RevokeTokenButton } from "@/components/tokens/revoke-token-form";
import type { RevokeState, TokenState } from "@/app/(app)/clusters/[cluster]/tokens/actions";

type CreateProps = {
  cluster: string;
  createAction: (state: TokenState, form: FormData) => Promise<TokenState>;
};

/** Creates a cluster token and shows it once; a refusal or a bad name shows as an alert. */
export function CreateTokenForm({ cluster, createAction }: CreateProps) {
  const [state, action, isPending] = useActionState(createAction, null);
  const error = state?.ok === false ? state.error : null;
  const nameError = error?.fieldErrors.name;
  return (
    <div>
      <form action={action} className="inline-form">
        <input type="hidden" name="cluster" value={cluster} />
        <label htmlFor="token-name">Token name</label>
        <input
          id="token-name"
          name="name"
          type="text"
          placeholder="slurm-bridge-01"
          required
          aria-invalid={nameError ? true : undefined}
          aria-describedby={error ? "token-error" : undefined}
        />
        <button className="button" type="submit" disabled={isPending}>
          Create executor token
        </button>
      </form>
      {error ? (
        <p id="token-error" role="alert" className="field-error">
          {nameError ?? error.message}
        </p>
      ) : null}
      {state?.ok ? (
        <div role="status">
          <p>
            Token <strong>{state.data.name}</strong> created. Copy it now: it is shown only once and
            stored only as a hash.
          </p>
          <p className="token-once" aria-label="New token">
            {state.data.token}
          </p>
          <CopyButton text={state.data.token} label="Copy the token" />
        </div>
      ) : null}
    </div>
  );
}

type RevokeProps = {
  cluster: string;
  tokenId: string;
  tokenName: string;
  revokeAction: (state: RevokeState, form: FormData) => Promise<RevokeState>;
};

/** The Revoke button of one token, with the refusal (if any) beside it. */
export function RevokeTokenForm({ cluster, tokenId, tokenName, revokeAction }: RevokeProps) {
  return (
    <RevokeTokenButton
      fields={{ cluster, tokenId }}
      tokenName={tokenName}
      usedBy={`${cluster}'s executor and any script`}
      revokeAction={revokeAction}
    />
  );
}
