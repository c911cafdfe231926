"use server";

import { randomUUID } from "node:crypto";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getSessionUser } from "@/lib/auth";
import { ingestEvents } from "@/lib/data/executor";
import { createClusterToken, revokeClusterToken } from "@/lib/data/tokens";
import { AppError } from "@/lib/errors";

async function requireAdmin() {
  const user = await getSessionUser();
  if (!user?.isAdmin) throw new AppError("forbidden", "Only admins manage nodes and tokens.");
  return user;
}

const healthSchema = z.object({
  cluster: z.string().min(1),
  node: z.coerce.number().int().min(0),
  health: z.enum(["healthy", "draining", "down"]),
});

/** An admin marks a node: recorded as an executor event of the cluster, then a tick. */
export async function setNodeHealthAction(form: FormData): Promise<void> {
  const user = await requireAdmin();
  const { cluster, node, health } = healthSchema.parse(Object.fromEntries(form));
  await ingestEvents(cluster, [
    { id: `admin-${randomUUID()}`, kind: `node.${health}`, node, message: `by ${user.email}` },
  ]);
  revalidatePath(`/clusters/${cluster}/nodes`);
}

export type TokenState = { token?: string; name?: string; error?: string };

const tokenSchema = z.object({
  cluster: z.string().min(1),
  name: z.string().trim().min(1, "Name the token (e.g. the executor's host).").max(80),
});

export async function createTokenAction(
  _previous: TokenState,
  form: FormData,
): Promise<TokenState> {
  const user = await requireAdmin();
  const parsed = tokenSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Invalid token name." };
  const { token, view } = await createClusterToken(parsed.data.cluster, parsed.data.name, user.id);
  revalidatePath(`/clusters/${parsed.data.cluster}/nodes`);
  return { token, name: view.name };
}

export async function revokeTokenAction(form: FormData): Promise<void> {
  await requireAdmin();
  const { cluster, tokenId } = z
    .object({ cluster: z.string().min(1), tokenId: z.string().min(1) })
    .parse(Object.fromEntries(form));
  await revokeClusterToken(tokenId);
  revalidatePath(`/clusters/${cluster}/nodes`);
}
