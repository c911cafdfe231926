// Members of leaf budgets and leads of nodes: added and removed by leads above them,
// each change kept in the history (an AllocationChange of kind "members" or "leads").
import "server-only";
import { getDb } from "./db/app-db";
import { AppError } from "../errors";
import type { PersonInput } from "../validation/budgets";
import { peopleChangeReason } from "../sentences/budget-changes";
import {
  assertAllowed,
  canEditChildren,
  canManageLeads,
  findLiveNode,
  loadTreeAccess,
} from "./budget-access";
import type { PersonRef } from "./budgets";
import { lockTreeForEdit } from "./tree-lock";
import type { SessionUser } from "./users";

export type PeopleRole = "members" | "leads";

export type PeopleResult = {
  nodeId: string;
  role: PeopleRole;
  people: PersonRef[];
  changed: boolean;
};

const PERSON = { id: true, name: true, email: true } as const;

/** Adds (`isAdding`) or removes a person as a member of a leaf or a lead of a node. */
export async function changePerson(
  user: SessionUser,
  nodeId: string,
  role: PeopleRole,
  input: PersonInput,
  isAdding: boolean,
): Promise<PeopleResult> {
  return getDb().$transaction(
    async (tx) => {
      // Serialised with every other tree edit: ten identical adds find the person there
      // after the first one (unchanged, 200), and a removal of the node cannot interleave.
      await lockTreeForEdit(tx);
      const node = await findLiveNode(tx, nodeId);
      const access = await loadTreeAccess(tx, user);
      if (role === "leads") {
        assertAllowed(
          canManageLeads(user, node, access),
          node.parentId === null
            ? "Only admins manage the leads of the whole lab."
            : `Only leads of a budget above "${node.name}" manage its leads.`,
        );
      } else {
        assertAllowed(
          canEditChildren(user, nodeId, access),
          `Only leads of "${node.name}" or of a budget above it manage its members.`,
        );
        const childCount = await tx.budgetNode.count({
          where: { parentId: nodeId, removedAt: null },
        });
        if (childCount > 0) {
          throw new AppError(
            "validation_failed",
            `"${node.name}" is split into budgets; members belong to its leaf budgets.`,
            [{ path: "email", message: "Add members to one of its leaf budgets instead." }],
          );
        }
      }
      const person = await tx.user.findUnique({ where: { email: input.email }, select: PERSON });
      if (!person) {
        throw new AppError(
          "validation_failed",
          `No one with the email ${input.email} has an account yet.`,
          [{ path: "email", message: "No account has this email; they must sign in once first." }],
        );
      }
      const listPeople = async () => {
        const query = { where: { nodeId }, select: { user: { select: PERSON } } };
        const rows =
          role === "leads"
            ? await tx.budgetLead.findMany(query)
            : await tx.budgetMember.findMany(query);
        return rows.map((row) => row.user).sort((a, b) => a.name.localeCompare(b.name));
      };
      const before = await listPeople();
      const isPresent = before.some((row) => row.id === person.id);
      if (isAdding === isPresent) {
        return { nodeId, role, people: before, changed: false };
      }
      const link = { nodeId, userId: person.id };
      if (role === "leads") {
        if (isAdding) await tx.budgetLead.create({ data: link });
        else await tx.budgetLead.delete({ where: { nodeId_userId: link } });
      } else if (isAdding) {
        await tx.budgetMember.create({ data: link });
      } else {
        await tx.budgetMember.delete({ where: { nodeId_userId: link } });
      }
      const after = await listPeople();
      await tx.allocationChange.create({
        data: {
          kind: role,
          nodeId,
          userId: user.id,
          reason: peopleChangeReason({ isAdding, name: person.name, role }),
          before,
          after,
        },
      });
      return { nodeId, role, people: after, changed: true };
    },
    { timeout: 20_000, maxWait: 10_000 },
  );
}
