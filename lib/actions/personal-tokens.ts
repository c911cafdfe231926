// What anyone signed in does on the tokens page (app/(app)/tokens/actions.ts): create and
// revoke their own personal tokens. The signed-in user is an argument, so these run (and are
// tested) without a request; the server actions wrap them in safeAction.
import "server-only";
import { z } from "zod";
import { issuePersonalToken, revokePersonalToken } from "../data/personal-tokens";
import type { SessionUser } from "../data/users";
import { AppError } from "../errors";
import { pathParamSchema } from "../validation/params";
import { createPersonalTokenFormSchema } from "../validation/tokens";

function requireUser(user: SessionUser | null): SessionUser {
  if (!user) throw new AppError("unauthorized", "Sign in again: your session has ended.");
  return user;
}

/** Creates a personal token of the signed-in person; the plaintext is in the result once. */
export async function createOwnToken(user: SessionUser | null, form: FormData) {
  const owner = requireUser(user);
  const input = createPersonalTokenFormSchema.parse(Object.fromEntries(form));
  const { token, view } = await issuePersonalToken(owner.id, input);
  return { token, name: view.name, expiresAt: view.expiresAt };
}

// z.object, not strictObject: React may add its own fields to a form sent before hydration.
const revokeSchema = z.object({ tokenId: pathParamSchema });

/** Revokes one of the signed-in person's own tokens (an admin's: anyone's); another's is 404. */
export async function revokeOwnToken(user: SessionUser | null, form: FormData) {
  const caller = requireUser(user);
  const { tokenId } = revokeSchema.parse(Object.fromEntries(form));
  const view = await revokePersonalToken(caller, tokenId);
  return { name: view.name };
}
