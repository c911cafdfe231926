// POST, DELETE /api/v1/budgets/[nodeId]/leads - add or remove leads of a node, by email
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireApiCaller } from "@/lib/auth";
import { changePerson } from "@/lib/data/budget-people";
import { nodeIdSchema, personSchema } from "@/lib/validation/budgets";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nodeId: string }> };

function handle(isAdding: boolean) {
  return apiRoute(async (request: Request, { params }: Context) => {
    const user = await requireApiCaller(request);
    const nodeId = nodeIdSchema.parse((await params).nodeId);
    const input = personSchema.parse(await readJson(request));
    const result = await changePerson(user, nodeId, "leads", input, isAdding);
    return NextResponse.json(result, { status: isAdding && result.changed ? 201 : 200 });
  });
}

export const POST = handle(true);
export const DELETE = handle(false);
