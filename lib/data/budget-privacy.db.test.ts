// Who reads whose email (docs/security.md): admins everyone's; leads the people of their
// branch; everyone their own. Names, weights and shares are for everyone signed in.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { createTestBranch, type TestBranch } from "../testing/budget-branch";
import { setChildren } from "./budget-edits";
import { getNodeHistory } from "./budget-history";
import { changePerson } from "./budget-people";
import { getChildrenState } from "./budget-state";
import { getBudgetTreeFor, type BudgetNodeView } from "./budgets";
import { createPrismaClient } from "./db/client";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
let branch: TestBranch;

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  branch = await createTestBranch(db, "zz-privacy");
  const { pi, outsider } = branch.users;
  await changePerson(pi, branch.ids["zz-privacy/proj/bob"]!, "members", outsider, true);
});
afterAll(async () => {
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith("zz-privacy")),
  });
  await db.$disconnect();
});

/** The emails the tree shows, as "node path: email". */
function emailsShown(nodes: BudgetNodeView[]): string[] {
  return nodes.flatMap((node) =>
    [...node.leads, ...node.members].flatMap((person) =>
      person.email ? [`${node.path}: ${person.email}`] : [],
    ),
  );
}

describe("emails in the budget tree", () => {
  it("shows a researcher only their own email, and every name", async () => {
    const { researcher } = branch.users;
    const nodes = await getBudgetTreeFor(researcher);
    expect(new Set(emailsShown(nodes).map((line) => line.split(": ")[1]))).toEqual(
      new Set([researcher.email]),
    );
    const alice = nodes.find((node) => node.path === "zz-privacy/proj/alice")!;
    expect(alice.members).toEqual([
      { id: researcher.id, name: researcher.name, email: researcher.email },
    ]);
    const bob = nodes.find((node) => node.path === "zz-privacy/proj/bob")!;
    expect(bob.members).toEqual([
      { id: branch.users.outsider.id, name: branch.users.outsider.name },
    ]);
  });

  it("shows a PI the emails of the people of their project, not of other programs", async () => {
    const { pi, outsider, researcher } = branch.users;
    const shown = emailsShown(await getBudgetTreeFor(pi));
    expect(shown).toContain(`zz-privacy/proj/bob: ${outsider.email}`);
    expect(shown).toContain(`zz-privacy/proj/alice: ${researcher.email}`);
    // Outside the PI's branch (the root's leads, the demo programs), only the PI's own email.
    expect(shown.some((line) => !line.startsWith("zz-privacy/") && !line.endsWith(pi.email))).toBe(
      false,
    );
  });

  it("shows an admin every email", async () => {
    const nodes = await getBudgetTreeFor(branch.users.admin);
    const people = nodes.flatMap((node) => [...node.leads, ...node.members]);
    expect(people.length).toBeGreaterThan(100);
    expect(people.every((person) => person.email !== undefined)).toBe(true);
  });
});

describe("emails in a budget's history", () => {
  it("are kept for its leads and hidden from a researcher who does not lead it", async () => {
    const bobId = branch.ids["zz-privacy/proj/bob"]!;
    const { pi, researcher, outsider } = branch.users;
    const added = (history: Awaited<ReturnType<typeof getNodeHistory>>) =>
      history.changes.find((change) => change.kind === "members")!.after;
    expect(added(await getNodeHistory(bobId, pi))).toEqual([
      { id: outsider.id, name: outsider.name, email: outsider.email },
    ]);
    expect(added(await getNodeHistory(bobId, researcher))).toEqual([
      { id: outsider.id, name: outsider.name },
    ]);
  });
});
