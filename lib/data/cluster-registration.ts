// A cluster an outside executor drives: created, or brought up to date with the executor's
// nodes, by POST /api/v1/clusters (admins). The demo executor never drives it.
import "server-only";
import { getDb } from "./db/app-db";
import { DEFAULT_MAX_MIN_RUNTIME_SEC } from "../engine";
import { AppError } from "../errors";
import { minRuntimeDefaultProblem, type RegisterClusterInput } from "../validation/clusters";
import { insertClusterToken } from "./tokens";

/** The column's default (prisma/schema.prisma), for a new cluster given only a maximum. */
const DEFAULT_MIN_RUNTIME_SEC = 3600;

export type RegisteredCluster = {
  name: string;
  isNew: boolean;
  nodes: { index: number; hostname: string; gpus: number }[];
  /** Nodes Allot knows that the executor no longer listed (left as they are). */
  unlisted: string[];
  /** The new cluster token, shown once, when one was asked for. */
  token: string | null;
};

/**
 * Creates the cluster or updates its nodes by hostname (new ones are appended), and makes the
 * cluster token `input.tokenName` when given: all in one transaction, so all or nothing.
 */
export async function registerCluster(
  input: RegisterClusterInput,
  adminId: string,
): Promise<RegisteredCluster> {
  const db = getDb();
  const result = await db.$transaction(async (tx) => {
    const existing = await tx.cluster.findUnique({
      where: { name: input.name },
      select: {
        id: true,
        executor: true,
        maxMinRuntimeSec: true,
        defaultMinRuntimeSec: true,
        nodes: { select: { index: true, hostname: true } },
      },
    });
    if (existing && existing.executor !== input.executor) {
      throw new AppError(
        "conflict",
        `Cluster "${input.name}" is driven by the ${existing.executor} executor; register the SLURM cluster under another name.`,
      );
    }
    // One of the two given beside the other as stored (or the column's default).
    const problem = minRuntimeDefaultProblem(
      input.defaultMinRuntimeSec ?? existing?.defaultMinRuntimeSec ?? DEFAULT_MIN_RUNTIME_SEC,
      input.maxMinRuntimeSec ?? existing?.maxMinRuntimeSec ?? DEFAULT_MAX_MIN_RUNTIME_SEC,
    );
    if (problem) {
      throw new AppError("validation_failed", problem, [
        { path: "defaultMinRuntimeSec", message: problem },
      ]);
    }
    const settings = {
      gpuType: input.gpuType,
      executor: input.executor,
      ...(input.maxMinRuntimeSec === undefined ? {} : { maxMinRuntimeSec: input.maxMinRuntimeSec }),
      ...(input.defaultMinRuntimeSec === undefined
        ? {}
        : { defaultMinRuntimeSec: input.defaultMinRuntimeSec }),
    };
    const cluster = existing
      ? await tx.cluster.update({
          where: { id: existing.id },
          data: settings,
          select: { id: true },
        })
      : await tx.cluster.create({ data: { name: input.name, ...settings }, select: { id: true } });
    const known = new Map((existing?.nodes ?? []).map((node) => [node.hostname, node.index]));
    let nextIndex = Math.max(-1, ...(existing?.nodes ?? []).map((node) => node.index)) + 1;
    for (const node of input.nodes) {
      const index = known.get(node.hostname);
      if (index === undefined) {
        await tx.clusterNode.create({
          data: {
            clusterId: cluster.id,
            index: nextIndex++,
            hostname: node.hostname,
            gpus: node.gpus,
          },
        });
      } else {
        await tx.clusterNode.update({
          where: { clusterId_index: { clusterId: cluster.id, index } },
          data: { gpus: node.gpus },
        });
      }
    }
    // In the same transaction: a token that cannot be stored leaves no cluster without one.
    const token = input.tokenName
      ? (await insertClusterToken(tx, cluster.id, input.tokenName, adminId)).token
      : null;
    const listed = new Set(input.nodes.map((node) => node.hostname));
    const nodes = await tx.clusterNode.findMany({
      where: { clusterId: cluster.id },
      orderBy: { index: "asc" },
      select: { index: true, hostname: true, gpus: true },
    });
    return {
      isNew: !existing,
      nodes: nodes.map((node) => ({ ...node, hostname: node.hostname ?? "" })),
      unlisted: nodes
        .map((node) => node.hostname)
        .filter((name): name is string => name !== null && !listed.has(name)),
      token,
    };
  });
  return { name: input.name, ...result };
}
