"use server";

// The nodes page's admin action (lib/actions/safe-action.ts): a refusal is a 403 state and bad
// input a 422 state with field errors (a drain without a reason: on `reason`), shown by the form,
// which then refetches the page's query (docs/decisions/094-one-way-to-refresh.md).
import { setNodeHealth } from "@/lib/actions/cluster-admin";
import { safeAction, type ActionResult, type ActionState } from "@/lib/actions/safe-action";
import { getSessionUser } from "@/lib/auth";

export type NodeHealthState = ActionState<{ note: string | null }>;

/** An admin marks a node: recorded as an executor event of the cluster, then a tick. */
export async function setNodeHealthAction(
  _previous: NodeHealthState,
  form: FormData,
): Promise<ActionResult<{ note: string | null }>> {
  return safeAction(async () => {
    const { note } = await setNodeHealth(await getSessionUser(), form);
    return { note };
  });
}
