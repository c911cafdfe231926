// What the split editor derives from the lead's draft on every keystroke: the body a save sends,
// the form's own issues, the engine's preview of every share below, and the warnings a save
// needs confirmed (every weight 0, or a sharp cut).
import { useMemo } from "react";
import { formatPercent } from "@/lib/format";
import { getSharpCutWarnings, getSplitWarnings, setChildrenSchema } from "@/lib/validation/budgets";
import {
  parseWeight,
  previewSplit,
  type DraftChild,
  type NodeRow,
  type SavedSplit,
} from "./tree-model";

/** The draft's save body, issues, preview and warnings, recomputed only when they change. */
export function useSplitChecks(
  node: NodeRow,
  rows: NodeRow[],
  base: SavedSplit,
  draft: DraftChild[],
  reason: string,
) {
  const body = useMemo(
    () => ({
      version: base.version,
      reason,
      children: draft.map((child) => ({
        ...(child.id ? { id: child.id } : {}),
        name: child.name.trim(),
        weight: parseWeight(child.weightText) ?? Number.NaN,
      })),
    }),
    [base.version, reason, draft],
  );
  const clientIssues = useMemo(() => {
    const parsed = setChildrenSchema.safeParse(body);
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) => ({
          path: issue.path.join("."),
          message: issue.message,
        }));
  }, [body]);
  // A weight or name the form refuses (empty, negative, too large) has its own message beside
  // it: the preview waits for it rather than counting it as 0 or quoting the engine's check.
  const hasWeightIssue = clientIssues.some((issue) => /^children\.\d+\.weight$/.test(issue.path));
  const hasNameIssue = clientIssues.some((issue) => /^children\.\d+\.name$/.test(issue.path));
  const preview = useMemo(
    () =>
      hasWeightIssue || hasNameIssue
        ? {
            ok: false as const,
            message: `give every budget a ${hasWeightIssue ? "weight" : "name"} the form accepts (see above).`,
          }
        : previewSplit(rows, node.id, draft),
    [hasWeightIssue, hasNameIssue, rows, node.id, draft],
  );
  const zeroWarnings = getSplitWarnings(
    draft.map((child) => ({ weight: parseWeight(child.weightText) ?? 1 })),
  );
  const warnings = [
    ...zeroWarnings,
    ...(hasWeightIssue ? [] : getSharpCutWarnings(base.children, body.children, formatPercent)),
  ];
  return { body, clientIssues, preview, zeroWarnings, warnings };
}
