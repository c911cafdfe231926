// A throw-away branch of the budget tree for database tests: two programs of weight 0
// under the root (so the demo lab's shares do not move), with a person in every role.
// Tests share one database, so each file builds its own branch under its own label.
import type { Db } from "../data/db/client";
import type { SessionUser } from "../data/users";
import { DEMO_DOMAIN, DEMO_USERS, type OrgNode } from "../demo/lab-org";
import { upsertTree, upsertUsers } from "../demo/seed-org";

export type TestRole = "admin" | "programLead" | "pi" | "researcher";

export type TestBranch = {
  rootId: string;
  users: Record<TestRole | "outsider", SessionUser>;
  /** Node ids by path below the root, e.g. "zz-a/proj/alice". */
  ids: Record<string, string>;
};

export const TEST_ROLES: TestRole[] = ["admin", "programLead", "pi", "researcher"];

function node(
  name: string,
  weight: number,
  children: OrgNode[] = [],
  leads: string[] = [],
  members: string[] = [],
): OrgNode {
  return { name, weight, leads, members, children };
}

/**
 * `${label}` (led by the program lead) -> proj (led by the PI) -> alice (the researcher's
 * leaf), bob; `${label}` -> solo (a leaf led by the PI); `${label}-other` (another lead) -> other-proj.
 */
export async function createTestBranch(db: Db, label: string): Promise<TestBranch> {
  const email = (role: string) => `${label}-${role}@${DEMO_DOMAIN}`;
  const people = ["programLead", "pi", "researcher", "outsider", "otherLead"].map((role) => ({
    email: email(role.toLowerCase()),
    name: `${label} ${role}`,
    isAdmin: false,
    isDemo: false,
  }));
  const userIds = await upsertUsers(db, people);
  const root = await db.budgetNode.findFirstOrThrow({
    where: { parentId: null },
    select: { id: true },
  });
  const program = node(
    label,
    0,
    [
      node(
        "proj",
        2,
        [node("alice", 1, [], [], [email("researcher")]), node("bob", 1)],
        [email("pi")],
      ),
      node("solo", 1, [], [email("pi")], [email("pi")]),
    ],
    [email("programlead")],
  );
  const other = node(`${label}-other`, 0, [node("other-proj", 1)], [email("otherlead")]);
  await upsertTree(db, program, root.id, userIds);
  await upsertTree(db, other, root.id, userIds);

  const rows = await db.budgetNode.findMany({
    where: { removedAt: null },
    select: { id: true, parentId: true, name: true },
  });
  const ids: Record<string, string> = {};
  const pathOf = (id: string): string => {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row || row.parentId === null) return "";
    const parentPath = pathOf(row.parentId);
    return parentPath ? `${parentPath}/${row.name}` : row.name;
  };
  for (const row of rows) {
    const path = pathOf(row.id);
    if (path === label || path.startsWith(`${label}/`) || path.startsWith(`${label}-other`)) {
      ids[path] = row.id;
    }
  }
  const asUser = async (address: string) =>
    db.user.findUniqueOrThrow({
      where: { email: address },
      select: { id: true, email: true, name: true, isAdmin: true },
    });
  return {
    rootId: root.id,
    ids,
    users: {
      admin: await asUser(DEMO_USERS.admin.email),
      programLead: await asUser(email("programlead")),
      pi: await asUser(email("pi")),
      researcher: await asUser(email("researcher")),
      outsider: await asUser(email("outsider")),
    },
  };
}
