import type { DraftListItem } from "@/lib/data/budget-drafts";
import { formatDateTime } from "@/lib/format";

type DraftOrigin = Pick<DraftListItem, "authorName" | "createdAt" | "basedOnVersion" | "reason">;

/**
 * Who drafted a split, when, from which version and why. The time is when a person saved it:
 * real time, named as the what-if list names its clocks (in the demo the cluster clock runs
 * ahead, and this page also shows periods on it).
 */
export function DraftByline({ draft }: { draft: DraftOrigin }) {
  return (
    <p className="muted">
      By {draft.authorName}, {formatDateTime(draft.createdAt)} (real time), from version{" "}
      {draft.basedOnVersion}: “{draft.reason}”
    </p>
  );
}
