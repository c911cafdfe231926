"use server";

// The tokens page's actions. Each returns a state (lib/actions/safe-action.ts): bad input is a
// 422 state with field errors, shown by the form.
import { revalidatePath } from "next/cache";
import { createOwnToken, revokeOwnToken } from "@/lib/actions/personal-tokens";
import { safeAction, type ActionResult, type ActionState } from "@/lib/actions/safe-action";
import { getSessionUser } from "@/lib/auth";

const TOKENS_PATH = "/tokens";

export type NewToken = { token: string; name: string; expiresAt: string | null };
export type PersonalTokenState = ActionState<NewToken>;

export async function createPersonalTokenAction(
  _previous: PersonalTokenState,
  form: FormData,
): Promise<ActionResult<NewToken>> {
  return safeAction(async () => {
    const created = await createOwnToken(await getSessionUser(), form);
    revalidatePath(TOKENS_PATH);
    return created;
  });
}

export type RevokePersonalTokenState = ActionState<null>;

export async function revokePersonalTokenAction(
  _previous: RevokePersonalTokenState,
  form: FormData,
): Promise<ActionResult<null>> {
  return safeAction(async () => {
    await revokeOwnToken(await getSessionUser(), form);
    revalidatePath(TOKENS_PATH);
    return null;
  });
}
