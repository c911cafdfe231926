// The reasons the budget history stores for changes whose words are not the editor's own: a
// person added or removed (lib/data/budget-people.ts), a draft adopted (lib/data/budget-drafts.ts).
// Pure.
import { formatDate } from "../format";

/**
 * A lead or member added or removed.
 *
 * @example peopleChangeReason({ isAdding: true, name: "Priya Raman", role: "members" })
 * // "Added Priya Raman as member"
 */
export function peopleChangeReason(change: {
  isAdding: boolean;
  name: string;
  role: "leads" | "members";
}): string {
  const noun = change.role === "leads" ? "lead" : "member";
  return `${change.isAdding ? "Added" : "Removed"} ${change.name} as ${noun}`;
}

/**
 * The adopter's own reason, naming the draft and the periods of its finished what-ifs, newest
 * first (the three newest, then how many more): the lead may have read any of them.
 *
 * @example adoptionReason(new Date("2026-11-02T10:00:00Z"), ["Oct 2026"], "eval needs it")
 * // "Adopted the draft of 2026-11-02 after a what-if on Oct 2026: eval needs it"
 */
export function adoptionReason(
  draftCreatedAt: Date,
  whatIfPeriods: readonly string[],
  reason: string,
): string {
  const shown = whatIfPeriods.slice(0, 3);
  const more = whatIfPeriods.length - shown.length;
  const after =
    shown.length === 0
      ? ""
      : ` after ${shown.length === 1 ? "a what-if" : "what-ifs"} on ${shown.join("; ")}${more > 0 ? ` and ${more} more` : ""}`;
  return `Adopted the draft of ${formatDate(draftCreatedAt)}${after}: ${reason}`;
}
