"use client";

import { useActionState } from "react";
import type { TokenState } from "@/app/(app)/clusters/[cluster]/nodes/actions";

type Props = {
  cluster: string;
  createAction: (state: TokenState, form: FormData) => Promise<TokenState>;
};

/** Creates a cluster token and shows it once. */
export function CreateTokenForm({ cluster, createAction }: Props) {
  const [state, action, isPending] = useActionState(createAction, {});
  return (
    <div>
      <form action={action} className="inline-form">
        <input type="hidden" name="cluster" value={cluster} />
        <label htmlFor="token-name">Token name</label>
        <input id="token-name" name="name" type="text" placeholder="slurm-bridge-01" required />
        <button className="button" type="submit" disabled={isPending}>
          Create executor token
        </button>
      </form>
      {state.error ? (
        <p role="alert" className="field-error">
          {state.error}
        </p>
      ) : null}
      {state.token ? (
        <div role="status">
          <p>
            Token <strong>{state.name}</strong> created. Copy it now: it is shown only once and
            stored only as a hash.
          </p>
          <p className="token-once" aria-label="New token">
            {state.token}
          </p>
        </div>
      ) : null}
    </div>
  );
}
