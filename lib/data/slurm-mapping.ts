// The one mapping between Allot's budget tree and SLURM's accounts, used by
// `allot slurm sync-accounts` (to write the accounts) and by the server when the bridge
// mirrors a submission (to find the leaf an `sbatch -A <account>` charges). Pure.
import type { BudgetTree } from "../engine";

/** One SLURM account for one budget node. */
export type SlurmAccount = {
  /** SLURM's account name: the budget path, lowercased, "/" written as ".". */
  name: string;
  /** The parent's account; "root" (SLURM's own root account) for the tree's root. */
  parent: string;
  nodeId: string;
  path: string;
  /** SLURM's integer Fairshare for this account (see fairshareOf). */
  fairshare: number;
  isLeaf: boolean;
};

export type SlurmAccountMap = {
  /** In the tree's preorder: a parent always comes before its children. */
  accounts: SlurmAccount[];
  /** Account name -> budget node id. */
  nodeIdByAccount: Map<string, string>;
};

/** SLURM lowercases account names; anything but letters, digits, "_" and "-" becomes "-". */
export function slugForSlurm(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
}

/** The account of a budget at `path` ("" for the root, named `rootName`). */
export function slurmAccountName(path: string, rootName: string): string {
  return path === "" ? slugForSlurm(rootName) : path.split("/").map(slugForSlurm).join(".");
}

/**
 * SLURM's Fairshare is an integer and only its ratio among siblings matters (Fair Tree
 * compares siblings), so whole weights pass as they are and a sibling group with a fraction
 * is scaled by 1000 and rounded.
 */
export function fairshareOf(weight: number, siblingWeights: readonly number[]): number {
  const isWhole = siblingWeights.every((w) => Number.isInteger(w));
  return isWhole ? weight : Math.round(weight * 1000);
}

/** Thrown when two budgets would get one account name. */
export class AccountClashError extends Error {}

/**
 * The accounts of a budget tree. Throws AccountClashError naming both paths when two budgets
 * map to one account (rename one of them).
 */
export function slurmAccountsOf(tree: BudgetTree): SlurmAccountMap {
  const root = tree.nodes[tree.indexById[tree.rootId]!]!;
  const accounts: SlurmAccount[] = [];
  const nodeIdByAccount = new Map<string, string>();
  const pathByAccount = new Map<string, string>();
  for (const node of tree.nodes) {
    const name = slurmAccountName(node.path, root.name);
    const clash = pathByAccount.get(name);
    if (clash !== undefined) {
      throw new AccountClashError(
        `Budgets "${clash || root.name}" and "${node.path || root.name}" would share the SLURM account "${name}": rename one of them.`,
      );
    }
    pathByAccount.set(name, node.path);
    nodeIdByAccount.set(name, node.id);
    const parent = node.parentIndex < 0 ? null : tree.nodes[node.parentIndex]!;
    const siblings = parent ? parent.childIndices.map((i) => tree.nodes[i]!.weight) : [node.weight];
    accounts.push({
      name,
      parent: parent ? slurmAccountName(parent.path, root.name) : "root",
      nodeId: node.id,
      path: node.path,
      fairshare: parent ? fairshareOf(node.weight, siblings) : 1,
      isLeaf: node.isLeaf,
    });
  }
  return { accounts, nodeIdByAccount };
}

/** A person's SLURM login: the part of their email before "@", lowercased. */
export function slurmLoginOf(email: string): string {
  return email.slice(0, Math.max(0, email.indexOf("@"))).toLowerCase() || email.toLowerCase();
}
