import { describe, expect, it } from "vitest";
import {
  formatSacctmgrCommand,
  parseSlurmAccountState,
  planAccountSync,
  type WantedAccount,
} from "./sync-accounts";

// sacctmgr -n -P output of a fresh cluster: only SLURM's root account and user.
const FRESH = { accounts: "root|root\n", assocs: "root|||1\nroot|root||1\n", users: "root|root\n" };

// The tree lab -> { a (3): alice, bob; b (2): alice }, as sync-accounts leaves it.
const SYNCED = {
  accounts: "lab|allot\nlab.a|allot\nlab.b|allot\nroot|root\n",
  assocs: [
    "root|||1",
    "root|root||1",
    "lab||root|1",
    "lab.a||lab|3",
    "lab.a|alice||1",
    "lab.a|bob||1",
    "lab.b||lab|2",
    "lab.b|alice||1",
  ].join("\n"),
  users: "alice|lab.a\nbob|lab.a\nroot|root\n",
};

const TREE: WantedAccount[] = [
  { name: "lab", parent: "root", fairshare: 1, users: [] },
  { name: "lab.a", parent: "lab", fairshare: 3, users: ["alice", "bob"] },
  { name: "lab.b", parent: "lab", fairshare: 2, users: ["alice"] },
];

function plan(state: typeof FRESH, wanted: WantedAccount[]) {
  const parsed = parseSlurmAccountState(state.accounts, state.assocs, state.users);
  const result = planAccountSync(parsed, wanted, "c1");
  return { ...result, lines: result.commands.map((args) => args.join(" ")) };
}

describe("planAccountSync", () => {
  it("adds every account, parents first, then users grouped by their new accounts, on a fresh cluster", () => {
    expect(plan(FRESH, TREE).lines).toEqual([
      "add account lab parent=root fairshare=1 organization=allot cluster=c1",
      "add account lab.a parent=lab fairshare=3 organization=allot cluster=c1",
      "add account lab.b parent=lab fairshare=2 organization=allot cluster=c1",
      "add user alice account=lab.a,lab.b cluster=c1",
      "add user bob account=lab.a cluster=c1",
    ]);
  });

  it("plans nothing when SLURM already matches (the second run)", () => {
    expect(plan(SYNCED, TREE)).toEqual({ commands: [], clashes: [], lines: [] });
  });

  it("changes only a fairshare that differs", () => {
    const wanted = TREE.map((a) => (a.name === "lab.b" ? { ...a, fairshare: 5 } : a));
    expect(plan(SYNCED, wanted).lines).toEqual([
      "modify account where name=lab.b cluster=c1 set fairshare=5",
    ]);
  });

  it("renames: adds the new account with its users, moves defaults, then deletes the old one", () => {
    const wanted = [TREE[0]!, { ...TREE[1]!, name: "lab.x" }, TREE[2]!];
    expect(plan(SYNCED, wanted).lines).toEqual([
      "add account lab.x parent=lab fairshare=3 organization=allot cluster=c1",
      "add user alice,bob account=lab.x cluster=c1",
      "modify user where name=alice,bob cluster=c1 set defaultaccount=lab.x",
      "delete account where name=lab.a cluster=c1",
    ]);
  });

  it("removes a budget: users left with nothing are deleted before their account", () => {
    expect(plan(SYNCED, [TREE[0]!, TREE[2]!]).lines).toEqual([
      "modify user where name=alice cluster=c1 set defaultaccount=lab.b",
      "delete user where name=bob cluster=c1",
      "delete account where name=lab.a cluster=c1",
    ]);
  });

  it("removes a subtree children first; a user who left keeps their default association to the last", () => {
    const state = {
      ...SYNCED,
      accounts: `${SYNCED.accounts}lab.a.deep|allot\n`,
      assocs: `${SYNCED.assocs}\nlab.a.deep||lab.a|1\n`,
    };
    const wanted = [TREE[0]!, { ...TREE[2]!, users: ["bob"] }];
    expect(plan(state, wanted).lines).toEqual([
      "add user bob account=lab.b cluster=c1",
      "modify user where name=bob cluster=c1 set defaultaccount=lab.b",
      "delete user where name=alice account=lab.b cluster=c1",
      "delete user where name=alice cluster=c1",
      "delete account where name=lab.a.deep cluster=c1",
      "delete account where name=lab.a cluster=c1",
    ]);
  });

  it("leaves accounts and users Allot did not make alone", () => {
    const state = {
      accounts: `${SYNCED.accounts}physics|uni\n`,
      assocs: `${SYNCED.assocs}\nphysics||root|4\nphysics|bob||1\n`,
      users: SYNCED.users,
    };
    expect(plan(state, TREE).lines).toEqual([]);
    // bob loses lab.a but keeps physics, which becomes his default.
    expect(plan(state, [TREE[0]!, TREE[2]!]).lines).toEqual([
      "modify user where name=alice cluster=c1 set defaultaccount=lab.b",
      "modify user where name=bob cluster=c1 set defaultaccount=physics",
      "delete account where name=lab.a cluster=c1",
    ]);
  });

  it("gives a user with no default account one of their budgets", () => {
    const state = { ...SYNCED, users: "alice|\nbob|lab.a\nroot|root\n" };
    expect(plan(state, TREE).lines).toEqual([
      "modify user where name=alice cluster=c1 set defaultaccount=lab.a",
    ]);
  });

  it("refuses a wanted name held by an account Allot did not make (a clash), planning nothing", () => {
    const state = {
      ...FRESH,
      accounts: "lab|physics dept\nroot|root\n",
      assocs: `${FRESH.assocs}lab||root|1\n`,
    };
    const result = plan(state, TREE);
    expect(result.commands).toEqual([]);
    expect(result.clashes).toEqual([
      'SLURM already has an account "lab" that Allot did not make (organization "physics dept"): remove it, rename the budget, or let Allot manage it: sacctmgr -i modify account where name=lab set organization=allot',
    ]);
  });

  it("adopts an unmarked account below the tree's root and marks it", () => {
    const state = { ...SYNCED, accounts: SYNCED.accounts.replace("lab.b|allot", "lab.b|") };
    expect(plan(state, TREE).lines).toEqual([
      "modify account where name=lab.b cluster=c1 set organization=allot",
    ]);
  });
});

describe("formatSacctmgrCommand", () => {
  it("quotes only arguments a shell would split", () => {
    expect(formatSacctmgrCommand(["add", "user", "a.b,c-d", "account=lab.x"])).toBe(
      "sacctmgr -i add user a.b,c-d account=lab.x",
    );
    expect(formatSacctmgrCommand(["set", "description=it's x"])).toBe(
      "sacctmgr -i set 'description=it'\\''s x'",
    );
  });
});

describe("planAccountSync grouping", () => {
  it("adds siblings of one fairshare in one call and changes fairshares in one call each", () => {
    const wanted: WantedAccount[] = [
      { name: "lab", parent: "root", fairshare: 1, users: [] },
      { name: "lab.a", parent: "lab", fairshare: 1, users: ["u1"] },
      { name: "lab.b", parent: "lab", fairshare: 1, users: ["u2"] },
      { name: "lab.c", parent: "lab", fairshare: 2, users: ["u3"] },
    ];
    expect(plan(FRESH, wanted).lines).toEqual([
      "add account lab parent=root fairshare=1 organization=allot cluster=c1",
      "add account lab.a,lab.b parent=lab fairshare=1 organization=allot cluster=c1",
      "add account lab.c parent=lab fairshare=2 organization=allot cluster=c1",
      "add user u1 account=lab.a cluster=c1",
      "add user u2 account=lab.b cluster=c1",
      "add user u3 account=lab.c cluster=c1",
    ]);
    const reweighted = TREE.map((a) => (a.name === "lab" ? a : { ...a, fairshare: 9 }));
    expect(plan(SYNCED, reweighted).lines).toEqual([
      "modify account where name=lab.a,lab.b cluster=c1 set fairshare=9",
    ]);
  });
});
