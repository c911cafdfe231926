// The one handler behind POST/DELETE /api/v1/budgets/[nodeId]/leads and /members.
import { NextResponse } from "next/server";
import { changePerson, type PeopleRole } from "../data/budget-people";
import { requireApiCaller } from "../auth";
import { personSchema } from "../validation/budgets";
import { parsePathParams } from "../validation/params";
import { apiRoute, readJson } from "./respond";

type Context = { params: Promise<{ nodeId: string }> };

/** Adds (201, or 200 when already there) or removes a lead or member of a node, by email. */
export function personRoute(kind: PeopleRole, isAdding: boolean) {
  return apiRoute(async (request: Request, { params }: Context) => {
    const user = await requireApiCaller(request);
    const { nodeId } = parsePathParams(await params);
    const input = personSchema.parse(await readJson(request));
    const result = await changePerson(user, nodeId, kind, input, isAdding);
    return NextResponse.json(result, { status: isAdding && result.changed ? 201 : 200 });
  });
}
