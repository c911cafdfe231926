"use server";

// The executor tokens page's admin actions (lib/actions/safe-action.ts): a refusal is a 403
// state and bad input a 422 state with field errors, shown by the form.
import { revalidatePath } from "next/cache";
import { createToken, revokeToken } from "@/lib/actions/cluster-admin";
import { safeAction, type ActionResult, type ActionState } from "@/lib/actions/safe-action";
import { getSessionUser } from "@/lib/auth";

function tokensPath(cluster: string): string {
  return `/clusters/${cluster}/tokens`;
}

export type TokenState = ActionState<{ token: string; name: string }>;

export async function createTokenAction(
  _previous: TokenState,
  form: FormData,
): Promise<ActionResult<{ token: string; name: string }>> {
  return safeAction(async () => {
    const { cluster, token, name } = await createToken(await getSessionUser(), form);
    revalidatePath(tokensPath(cluster));
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
    revalidatePath(tokensPath(cluster));
    return null;
  });
}
