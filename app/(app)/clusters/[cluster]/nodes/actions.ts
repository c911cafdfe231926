"use server";

// The nodes page's admin actions. Each returns a state (lib/actions/safe-action.ts): a refusal
// is a 403 state and bad input a 422 state with field errors, shown by the form.
import { revalidatePath } from "next/cache";
import { createToken, revokeToken, setNodeHealth } from "@/lib/actions/cluster-admin";
import { safeAction, type ActionResult, type ActionState } from "@/lib/actions/safe-action";
import { getSessionUser } from "@/lib/auth";

function nodesPath(cluster: string): string {
  return `/clusters/${cluster}/nodes`;
}

export type NodeHealthState = ActionState<{ note: string | null }>;

/** An admin marks a node: recorded as an executor event of the cluster, then a tick. */
export async function setNodeHealthAction(
  _previous: NodeHealthState,
  form: FormData,
): Promise<ActionResult<{ note: string | null }>> {
  return safeAction(async () => {
    const { cluster, note } = await setNodeHealth(await getSessionUser(), form);
    revalidatePath(nodesPath(cluster));
    return { note };
  });
}

export type TokenState = ActionState<{ token: string; name: string }>;

export async function createTokenAction(
  _previous: TokenState,
  form: FormData,
): Promise<ActionResult<{ token: string; name: string }>> {
  return safeAction(async () => {
    const { cluster, token, name } = await createToken(await getSessionUser(), form);
    revalidatePath(nodesPath(cluster));
    return { token, name };
  });
}

export type RevokeState = ActionState<null>;

export async function revokeTokenAction(
  _previous: RevokeState,
  form: FormData,
): Promise<ActionResult<null>> {
  return safeAction(async () => {
    const { cluster } = await revokeToken(await getSessionUser(), form);
    revalidatePath(nodesPath(cluster));
    return null;
  });
}
