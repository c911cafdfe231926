// POST, DELETE /api/v1/budgets/[nodeId]/leads - add or remove leads of a node, by email
import { personRoute } from "@/lib/api/person-route";

export const dynamic = "force-dynamic";

export const POST = personRoute("leads", true);
export const DELETE = personRoute("leads", false);
