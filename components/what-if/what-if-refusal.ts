// A what-if the split editor's "Try on …" asked for and the server refused: handed to the
// draft page it then opens, whose form shows the period tried and the reason, once.
import type { FieldIssue } from "@/lib/errors";

export type WhatIfRefusal = {
  /** The period and clusters asked for (ISO instants); absent for the default period. */
  from?: string;
  to?: string;
  clusters?: string[];
  message: string;
  issues: FieldIssue[];
};

const keyOf = (draftId: string) => `allot:what-if-refusal:${draftId}`;

/** Keeps the refusal for the draft's page in this tab (nothing when storage is off). */
export function keepWhatIfRefusal(draftId: string, refusal: WhatIfRefusal): void {
  try {
    sessionStorage.setItem(keyOf(draftId), JSON.stringify(refusal));
  } catch {
    // Storage refused (private mode, quota): the page opens without the reason.
  }
}

/** The refusal kept for the draft, removed as it is read; null when there is none. */
export function takeWhatIfRefusal(draftId: string): WhatIfRefusal | null {
  try {
    const text = sessionStorage.getItem(keyOf(draftId));
    sessionStorage.removeItem(keyOf(draftId));
    return text === null ? null : (JSON.parse(text) as WhatIfRefusal);
  } catch {
    return null;
  }
}
