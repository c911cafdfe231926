// `allot slurm sync-accounts`, the pure part: SLURM's current accounts (parsed from sacctmgr's
// parsable output) and the accounts the budget tree wants -> the sacctmgr commands that turn
// one into the other, and nothing else, so a second run plans nothing.
//
// Allot's accounts are marked with Organization=allot. An account is Allot's to change or
// remove when it carries the mark or sits below the tree's root account; any other account
// with a wanted name is a clash, and nothing is changed until it is resolved.

/** One SLURM account Allot wants (GET /api/v1/clusters/{name}/accounts). */
export type WantedAccount = {
  name: string;
  parent: string;
  fairshare: number;
  /** SLURM logins that get an association to this account (leaves only). */
  users: string[];
};

/** An association row: an account's own (user "") or a user's under that account. */
export type SlurmAssociation = { account: string; user: string; parent: string; fairshare: string };

/** What sacctmgr says about one cluster. */
export type SlurmAccountState = {
  /** Account name -> its Organization. */
  organizationByAccount: Map<string, string>;
  associations: SlurmAssociation[];
  /** User -> default account ("" when none). */
  defaultAccountByUser: Map<string, string>;
};

/** Arguments of one `sacctmgr -i` call. */
export type SacctmgrCommand = string[];

export type AccountSyncPlan = { commands: SacctmgrCommand[]; clashes: string[] };

/** The Organization that marks an account as written by Allot. */
export const ALLOT_ORGANIZATION = "allot";

/** The argument lists that read the state (`sacctmgr -n -P ...`), in parse order. */
export function stateQueries(cluster: string): string[][] {
  return [
    ["-n", "-P", "list", "account", "format=account,organization"],
    ["-n", "-P", "list", "assoc", `cluster=${cluster}`, "format=account,user,parentname,fairshare"],
    ["-n", "-P", "list", "user", "format=user,defaultaccount"],
  ];
}

function rowsOf(text: string): string[][] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.split("|"));
}

/** Parses the outputs of {@link stateQueries}. */
export function parseSlurmAccountState(
  accountsText: string,
  assocText: string,
  usersText: string,
): SlurmAccountState {
  return {
    organizationByAccount: new Map(rowsOf(accountsText).map(([name, org]) => [name!, org ?? ""])),
    associations: rowsOf(assocText).map(([account, user, parent, fairshare]) => ({
      account: account!,
      user: user ?? "",
      parent: parent ?? "",
      fairshare: fairshare ?? "",
    })),
    defaultAccountByUser: new Map(rowsOf(usersText).map(([user, def]) => [user!, def ?? ""])),
  };
}

/** The accounts Allot may change: marked ones and everything below `rootAccount`. */
function managedAccounts(state: SlurmAccountState, rootAccount: string): Set<string> {
  const managed = new Set<string>();
  for (const [name, org] of state.organizationByAccount) {
    if (org === ALLOT_ORGANIZATION && name !== "root") managed.add(name);
  }
  const parentOf = new Map<string, string>();
  for (const a of state.associations) if (a.user === "") parentOf.set(a.account, a.parent);
  for (const account of parentOf.keys()) {
    const seen = new Set<string>();
    for (let p = parentOf.get(account); p && !seen.has(p); p = parentOf.get(p)) {
      seen.add(p);
      if (p === rootAccount) {
        managed.add(account);
        break;
      }
    }
  }
  return managed;
}

/** Depth of an account in SLURM's current tree (root = 0), for deleting children first. */
function depthIn(state: SlurmAccountState, account: string): number {
  const parentOf = new Map<string, string>();
  for (const a of state.associations) if (a.user === "") parentOf.set(a.account, a.parent);
  let depth = 0;
  for (let p = parentOf.get(account); p && depth < 1000; p = parentOf.get(p)) depth += 1;
  return depth;
}

/**
 * Groups items by a key, keeping first-seen order of keys and items: each group becomes one
 * sacctmgr call, since every call costs about half a second of round trips to slurmdbd.
 */
function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.values()];
}

/**
 * The sacctmgr commands that make `state` (of SLURM cluster `cluster`) hold exactly the
 * `wanted` accounts (parents before children, the tree's root first), in the order to run them:
 * add accounts (siblings of one fairshare in one call), fix parents, fairshares and marks, add
 * user associations (users with the same new accounts in one call), move default accounts off
 * what goes away, delete user associations and users left with none, delete accounts (children
 * first). Deletions are one call each, so one refused by a running job stops nothing else.
 * `clashes` lists wanted names held by accounts Allot did not make; when it is not empty there
 * are no commands. sacctmgr must not run in parallel (slurmdbd deadlocks): run them in order.
 *
 * @example planAccountSync(state, [{ name: "lab", parent: "root", fairshare: 1, users: [] }], "c")
 */
export function planAccountSync(
  state: SlurmAccountState,
  wanted: readonly WantedAccount[],
  cluster: string,
): AccountSyncPlan {
  const rootAccount = wanted[0]?.name ?? "";
  const managed = managedAccounts(state, rootAccount);
  const wantedNames = new Set(wanted.map((a) => a.name));
  const own = new Map<string, SlurmAssociation>();
  const accountsOfUser = new Map<string, Set<string>>();
  for (const a of state.associations) {
    if (a.user === "") own.set(a.account, a);
    else accountsOfUser.set(a.user, (accountsOfUser.get(a.user) ?? new Set()).add(a.account));
  }

  const clashes = wanted
    .filter((a) => state.organizationByAccount.has(a.name) && !managed.has(a.name))
    .map(
      (a) =>
        `SLURM already has an account "${a.name}" that Allot did not make (organization ` +
        `"${state.organizationByAccount.get(a.name)}"): remove it, rename the budget, or let Allot ` +
        `manage it: sacctmgr -i modify account where name=${a.name} set organization=${ALLOT_ORGANIZATION}`,
    );
  if (clashes.length > 0) return { commands: [], clashes };

  const where = `cluster=${cluster}`;
  const commands: SacctmgrCommand[] = [];

  // Accounts: new ones level by level (a parent exists before its children), then changes.
  const depthOf = new Map<string, number>();
  for (const a of wanted) depthOf.set(a.name, (depthOf.get(a.parent) ?? -1) + 1);
  const added = wanted.filter((a) => !own.has(a.name));
  const byLevel = [...added].sort((x, y) => depthOf.get(x.name)! - depthOf.get(y.name)!);
  for (const group of groupBy(
    byLevel,
    (a) => `${depthOf.get(a.name)} ${a.parent} ${a.fairshare}`,
  )) {
    const { parent, fairshare } = group[0]!;
    commands.push([
      "add",
      "account",
      group.map((a) => a.name).join(","),
      `parent=${parent}`,
      `fairshare=${fairshare}`,
      `organization=${ALLOT_ORGANIZATION}`,
      where,
    ]);
  }
  const changes: { name: string; set: string }[] = [];
  for (const a of wanted) {
    const current = own.get(a.name);
    if (!current) continue;
    if (current.parent !== a.parent) changes.push({ name: a.name, set: `parent=${a.parent}` });
    if (current.fairshare !== String(a.fairshare)) {
      changes.push({ name: a.name, set: `fairshare=${a.fairshare}` });
    }
    if (state.organizationByAccount.get(a.name) !== ALLOT_ORGANIZATION) {
      changes.push({ name: a.name, set: `organization=${ALLOT_ORGANIZATION}` });
    }
  }
  for (const group of groupBy(changes, (change) => change.set)) {
    const names = group.map((change) => change.name).join(",");
    commands.push(["modify", "account", "where", `name=${names}`, where, "set", group[0]!.set]);
  }

  // Users: the final associations of each are the kept unmanaged ones plus the wanted ones.
  const finalOfUser = new Map<string, string[]>();
  for (const [user, accounts] of accountsOfUser) {
    finalOfUser.set(
      user,
      [...accounts].filter((account) => !managed.has(account)),
    );
  }
  const missingOfUser = new Map<string, string[]>();
  for (const a of wanted) {
    for (const user of [...new Set(a.users)].sort()) {
      finalOfUser.set(user, [...(finalOfUser.get(user) ?? []), a.name]);
      if (!accountsOfUser.get(user)?.has(a.name)) {
        missingOfUser.set(user, [...(missingOfUser.get(user) ?? []), a.name]);
      }
    }
  }
  const missing = [...missingOfUser].sort(([x], [y]) => x.localeCompare(y));
  for (const group of groupBy(missing, ([, accounts]) => accounts.join(","))) {
    const users = group.map(([user]) => user).join(",");
    commands.push(["add", "user", users, `account=${group[0]![1].join(",")}`, where]);
  }
  // A wanted account first, so a user's default is one of their budgets.
  for (const [user, accounts] of finalOfUser) {
    const wantedFirst = [...accounts].sort(
      (x, y) => Number(wantedNames.has(y)) - Number(wantedNames.has(x)),
    );
    finalOfUser.set(user, wantedFirst);
  }

  // Defaults off what goes away; users left with nothing are deleted (further below).
  const sortedUsers = [...finalOfUser].sort(([x], [y]) => x.localeCompare(y));
  const defaultMoves: { user: string; account: string }[] = [];
  const leaving: string[] = [];
  for (const [user, final] of sortedUsers) {
    const current = state.defaultAccountByUser.get(user);
    if (current === undefined) continue; // a new user: `add user` sets the default
    if (final.length === 0) leaving.push(user);
    else if (!final.includes(current)) defaultMoves.push({ user, account: final[0]! });
  }
  for (const group of groupBy(defaultMoves, (move) => move.account)) {
    const names = group.map((move) => move.user).join(",");
    commands.push([
      "modify",
      "user",
      "where",
      `name=${names}`,
      where,
      "set",
      `defaultaccount=${group[0]!.account}`,
    ]);
  }

  // Deletions, one call each. A user's associations go one by one, their default last, with
  // the user itself (sacctmgr refuses to remove a default account while others remain).
  const removed = [...managed].filter((name) => !wantedNames.has(name) && own.has(name));
  const removedSet = new Set(removed);
  const leavingSet = new Set(leaving);
  for (const [user, final] of sortedUsers) {
    const accounts = [...(accountsOfUser.get(user) ?? [])].sort();
    const isLeaving = leavingSet.has(user);
    const current = state.defaultAccountByUser.get(user);
    for (const account of accounts) {
      if (final.includes(account)) continue;
      if (isLeaving ? account === current : removedSet.has(account)) continue;
      commands.push(["delete", "user", "where", `name=${user}`, `account=${account}`, where]);
    }
    if (isLeaving) commands.push(["delete", "user", "where", `name=${user}`, where]);
  }
  removed.sort((x, y) => depthIn(state, y) - depthIn(state, x) || x.localeCompare(y));
  for (const name of removed) {
    commands.push(["delete", "account", "where", `name=${name}`, where]);
  }
  return { commands, clashes: [] };
}

/** One command as a shell line, e.g. `sacctmgr -i add account lab parent=root ...`. */
export function formatSacctmgrCommand(args: readonly string[]): string {
  const quoted = args.map((arg) =>
    /^[\w.,=@:/+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`,
  );
  return ["sacctmgr", "-i", ...quoted].join(" ");
}
