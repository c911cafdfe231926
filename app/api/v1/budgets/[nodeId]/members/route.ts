// POST, DELETE /api/v1/budgets/[nodeId]/members - add or remove members of a leaf budget, by email
import { personRoute } from "@/lib/api/person-route";

export const dynamic = "force-dynamic";

export const POST = personRoute("members", true);
export const DELETE = personRoute("members", false);
