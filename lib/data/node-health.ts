// An admin changes a node's health (the nodes page and POST /api/v1/clusters/{name}/nodes/
// {node}/health): recorded as an executor event of the cluster, so the engine sees it as any
// executor's report, with the admin and their reason kept in the node's history.
import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "../errors";
import { PERSON_EVENT_PREFIX } from "../validation/executor";
import type { NodeHealthInput, NodeRef } from "../validation/oversight";
import { getDb } from "./db/app-db";
import { ingestEvents } from "./executor";
import type { SessionUser } from "./users";

export type NodeHealthResult = {
  cluster: string;
  node: number;
  health: NodeHealthInput["health"];
  /** Why nothing changed (already in that state); null when it changed. */
  note: string | null;
};

/** Only admins change node health (docs/security.md). */
export function requireNodeAdmin(user: SessionUser | null): SessionUser {
  if (!user) throw new AppError("unauthorized", "Sign in again: your session has ended.");
  if (!user.isAdmin) throw new AppError("forbidden", "Only admins manage nodes and tokens.");
  return user;
}

function nodeWhere(ref: NodeRef) {
  if (typeof ref === "number") return { index: ref };
  if (ref.index === null) return { hostname: ref.hostname };
  return { OR: [{ hostname: ref.hostname }, { index: ref.index }] };
}

const isNamed = (hostname: string) => (node: { hostname: string | null }) =>
  node.hostname === hostname;

function noNode(ref: NodeRef): string {
  if (typeof ref === "number") return `no node ${ref}`;
  // A number is no node's name and no node's index: "no node 99" says both.
  return ref.index === null ? `no node named "${ref.hostname}"` : `no node ${ref.hostname}`;
}

/**
 * Marks `node` of `cluster` (its index, or the executor's name for it) as `input.health` for
 * `user` (an admin), then ticks the cluster.
 */
export async function setNodeHealthFor(
  user: SessionUser | null,
  cluster: string,
  ref: NodeRef,
  input: NodeHealthInput,
): Promise<NodeHealthResult> {
  const admin = requireNodeAdmin(user);
  const found = await getDb().cluster.findUnique({
    where: { name: cluster },
    select: { nodes: { where: nodeWhere(ref), select: { index: true, hostname: true } } },
  });
  if (!found) throw new AppError("not_found", `No cluster is named "${cluster}".`);
  // A name that reads as an index ("7") is a name first: SLURM may call node 0 "7".
  const byName = typeof ref === "number" ? undefined : found.nodes.find(isNamed(ref.hostname));
  const node = (byName ?? found.nodes[0])?.index;
  if (node === undefined)
    throw new AppError("not_found", `The cluster ${cluster} has ${noNode(ref)}.`);
  const { results } = await ingestEvents(
    cluster,
    [{ id: `${PERSON_EVENT_PREFIX}${randomUUID()}`, kind: `node.${input.health}`, node }],
    { actor: { source: "person", userId: admin.id, reason: input.reason ?? null } },
  );
  return { cluster, node, health: input.health, note: results[0]?.note ?? null };
}
