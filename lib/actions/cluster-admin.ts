// What an admin does on a cluster's nodes page (app/(app)/clusters/[cluster]/nodes/actions.ts):
// mark a node's health, create and revoke executor tokens. The signed-in user is an argument,
// so these run (and are tested) without a request; the server actions wrap them in safeAction.
import "server-only";
import { z } from "zod";
import { requireNodeAdmin as requireAdmin, setNodeHealthFor } from "../data/node-health";
import { createClusterToken, revokeClusterToken } from "../data/tokens";
import type { SessionUser } from "../data/users";
import { nodeHealthSchema, nodeIndexField } from "../validation/oversight";
import { pathParamSchema } from "../validation/params";
import { lineString } from "../text";

// Hidden fields of the page's forms; z.object, not strictObject: React may add its own fields
// ($ACTION_...) to a form submitted before hydration.
const clusterField = pathParamSchema;

const nodeFields = z.object({ cluster: clusterField, node: nodeIndexField });

/**
 * Marks a node, recorded as an executor event of the cluster (then a tick), with the admin and
 * their reason (required to drain). Returns what happened: `note` says why nothing changed (it
 * was already in that state); a node the cluster lacks is not found.
 */
export async function setNodeHealth(user: SessionUser | null, form: FormData) {
  requireAdmin(user);
  const fields = Object.fromEntries(form);
  const { cluster, node } = nodeFields.parse(fields);
  const input = nodeHealthSchema.parse({ health: fields.health, reason: fields.reason });
  return setNodeHealthFor(user, cluster, node, input);
}

const tokenSchema = z.object({
  cluster: clusterField,
  name: lineString("Name the token (e.g. the executor's host).")
    .trim()
    .min(1, "Name the token (e.g. the executor's host).")
    .max(80, "A token name has at most 80 characters."),
});

/** Creates a cluster token; the plaintext is in the result once and never stored. */
export async function createToken(user: SessionUser | null, form: FormData) {
  const admin = requireAdmin(user);
  const { cluster, name } = tokenSchema.parse(Object.fromEntries(form));
  const { token, view } = await createClusterToken(cluster, name, admin.id);
  return { cluster, token, name: view.name };
}

const revokeSchema = z.object({ cluster: clusterField, tokenId: pathParamSchema });

/**
 * Revokes a token of the form's cluster (revoking one already revoked changes nothing; another
 * cluster's token is not found).
 */
export async function revokeToken(user: SessionUser | null, form: FormData) {
  requireAdmin(user);
  const { cluster, tokenId } = revokeSchema.parse(Object.fromEntries(form));
  await revokeClusterToken(cluster, tokenId);
  return { cluster };
}
