// Every role against every mutation (docs/concepts.md): leads of a node or an ancestor
// edit its children and members; a node's leads are managed from above; the root's by
// admins; researchers only read. A refusal is a 403 and writes nothing.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { AppError } from "../errors";
import {
  createTestBranch,
  TEST_ROLES,
  type TestBranch,
  type TestRole,
} from "../testing/budget-branch";
import { setChildren } from "./budget-edits";
import { changePerson, type PeopleRole } from "./budget-people";
import { getChildrenState } from "./budget-state";
import { createPrismaClient } from "./db/client";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
let branch: TestBranch;

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  branch = await createTestBranch(db, "zz-perm");
});
afterAll(async () => {
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith("zz-perm")),
  });
  await db.$disconnect();
});

const ALL: Record<TestRole, boolean> = {
  admin: true,
  programLead: true,
  pi: true,
  researcher: false,
};

/** node key ("root" or a path in the branch) -> which roles may set its children. */
const SET_CHILDREN: [string, Record<TestRole, boolean>][] = [
  ["root", { admin: true, programLead: false, pi: false, researcher: false }],
  ["zz-perm", { admin: true, programLead: true, pi: false, researcher: false }],
  ["zz-perm/proj", ALL],
  ["zz-perm-other", { admin: true, programLead: false, pi: false, researcher: false }],
];

/** [people role, node key, who may add and remove]. */
const PEOPLE: [PeopleRole, string, Record<TestRole, boolean>][] = [
  ["members", "zz-perm/proj/alice", ALL],
  ["members", "zz-perm/solo", ALL],
  [
    "members",
    "zz-perm-other/other-proj",
    { admin: true, programLead: false, pi: false, researcher: false },
  ],
  ["leads", "root", { admin: true, programLead: false, pi: false, researcher: false }],
  ["leads", "zz-perm", { admin: true, programLead: false, pi: false, researcher: false }],
  ["leads", "zz-perm/proj", { admin: true, programLead: true, pi: false, researcher: false }],
  ["leads", "zz-perm/solo", { admin: true, programLead: true, pi: false, researcher: false }],
  ["leads", "zz-perm/proj/alice", { admin: true, programLead: true, pi: true, researcher: false }],
];

function idOf(key: string): string {
  return key === "root" ? branch.rootId : branch.ids[key]!;
}

async function historyCount(): Promise<number> {
  return db.allocationChange.count();
}

describe.each(TEST_ROLES)("as %s", (role) => {
  it.each(SET_CHILDREN)("set the children of %s", async (key, allowed) => {
    const nodeId = idOf(key);
    const state = await getChildrenState(db, nodeId);
    const changes = await historyCount();
    // One weight changed, then put back: an allowed save writes a history row and bumps the
    // version each time, and the split ends as it was. (A split sent as it is writes nothing.)
    const reweighted = state.children.map((child, index) =>
      index === 0 ? { ...child, weight: child.weight + 1 } : child,
    );
    const attempt = setChildren(branch.users[role], nodeId, {
      version: state.version,
      reason: `permission check as ${role}`,
      children: reweighted,
    });
    if (allowed[role]) {
      const result = await attempt;
      expect(result).toMatchObject({ changed: true, version: state.version + 1 });
      const restored = await setChildren(branch.users[role], nodeId, {
        version: result.version,
        reason: `permission check as ${role}: weight put back`,
        children: state.children,
      });
      expect(restored.version).toBe(state.version + 2);
      expect(restored.children).toEqual(state.children);
      expect(await historyCount()).toBe(changes + 2);
    } else {
      await expect(attempt).rejects.toMatchObject({ code: "forbidden" });
      expect(await getChildrenState(db, nodeId)).toEqual(state);
      expect(await historyCount()).toBe(changes);
    }
  });

  it.each(PEOPLE)("add and remove %s of %s", async (peopleRole, key, allowed) => {
    const nodeId = idOf(key);
    const email = branch.users.outsider.email;
    const changes = await historyCount();
    const add = changePerson(branch.users[role], nodeId, peopleRole, { email }, true);
    if (!allowed[role]) {
      const error = (await add.catch((caught: unknown) => caught)) as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe("forbidden");
      expect(error.status).toBe(403);
      expect(await historyCount()).toBe(changes);
      return;
    }
    const added = await add;
    expect(added.changed).toBe(true);
    expect(added.people.map((person) => person.email)).toContain(email);
    const removed = await changePerson(branch.users[role], nodeId, peopleRole, { email }, false);
    expect(removed.people.map((person) => person.email)).not.toContain(email);
    expect(await historyCount()).toBe(changes + 2);
  });
});

describe("people rules", () => {
  it("refuses members on a budget that is split into sub-budgets (422 on email)", async () => {
    const attempt = changePerson(
      branch.users.admin,
      idOf("zz-perm/proj"),
      "members",
      { email: branch.users.outsider.email },
      true,
    );
    await expect(attempt).rejects.toMatchObject({
      code: "validation_failed",
      issues: [{ path: "email", message: expect.any(String) }],
    });
  });

  it("refuses an email with no account, and adding someone twice changes nothing", async () => {
    const alice = idOf("zz-perm/proj/alice");
    await expect(
      changePerson(branch.users.pi, alice, "members", { email: "nobody@allot.example" }, true),
    ).rejects.toMatchObject({ code: "validation_failed" });
    const again = await changePerson(
      branch.users.pi,
      alice,
      "members",
      { email: branch.users.researcher.email },
      true,
    );
    expect(again.changed).toBe(false);
  });

  it("answers 404 for an unknown node", async () => {
    await expect(
      changePerson(branch.users.admin, "no-such-node", "leads", { email: "x@y.z" }, true),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});
