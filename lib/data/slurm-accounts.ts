// The budget tree as SLURM accounts, for `allot slurm sync-accounts`: the one mapping of
// lib/data/slurm-mapping.ts applied to the live tree, with each leaf's members as SLURM logins.
import "server-only";
import { getDb } from "./db/app-db";
import { AppError } from "../errors";
import { AccountClashError, slurmAccountsOf, slurmLoginOf } from "./slurm-mapping";
import { loadBudgetTree } from "./tick/load-state";

export type SlurmAccountView = {
  name: string;
  /** The parent's account; "root" (SLURM's root account) for the tree's root. */
  parent: string;
  fairshare: number;
  isLeaf: boolean;
  /** The budget's path, "" for the root. */
  path: string;
  /** SLURM logins of the leaf's members, sorted; always empty for inner nodes. */
  users: string[];
};

export type SlurmAccountsView = { cluster: string; accounts: SlurmAccountView[] };

/** The accounts `clusterName`'s SLURM should have, parents before children. */
export async function getSlurmAccounts(clusterName: string): Promise<SlurmAccountsView> {
  const db = getDb();
  const cluster = await db.cluster.findUnique({
    where: { name: clusterName },
    select: { name: true },
  });
  if (!cluster) throw new AppError("not_found", `No cluster is named "${clusterName}".`);
  const [tree, members] = await Promise.all([
    loadBudgetTree(db),
    db.budgetMember.findMany({
      where: { node: { removedAt: null } },
      select: { nodeId: true, user: { select: { email: true } } },
    }),
  ]);
  let mapped;
  try {
    mapped = slurmAccountsOf(tree);
  } catch (error) {
    if (error instanceof AccountClashError) throw new AppError("conflict", error.message);
    throw error;
  }
  const loginsByNode = new Map<string, Set<string>>();
  for (const member of members) {
    const logins = loginsByNode.get(member.nodeId) ?? new Set<string>();
    logins.add(slurmLoginOf(member.user.email));
    loginsByNode.set(member.nodeId, logins);
  }
  return {
    cluster: cluster.name,
    accounts: mapped.accounts.map((account) => ({
      name: account.name,
      parent: account.parent,
      fairshare: account.fairshare,
      isLeaf: account.isLeaf,
      path: account.path,
      users: account.isLeaf ? [...(loginsByNode.get(account.nodeId) ?? [])].sort() : [],
    })),
  };
}
