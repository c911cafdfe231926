"use client";

import { useEffect, useRef } from "react";
import { formatDateTime, formatWeight } from "@/lib/format";
import type { ChildrenState } from "@/lib/api-client/budgets";
import { parseWeight, rebaseDraft, type DraftChild, type SavedSplit } from "./tree-model";

function weightText(child: DraftChild | undefined): string {
  return child ? formatWeight(parseWeight(child.weightText) ?? 0) : "removed";
}

/** The conflict screen: who saved first, what they changed, and the viewer's edit beside it. */
export function ConflictNotice({
  base,
  current,
  draft,
  onReapply,
  onDiscard,
}: {
  base: SavedSplit;
  current: ChildrenState;
  draft: DraftChild[];
  onReapply: () => void;
  onDiscard: () => void;
}) {
  const ids = [
    ...new Set([
      ...base.children.map((child) => child.id),
      ...current.children.map((child) => child.id),
      ...draft.flatMap((child) => (child.id ? [child.id] : [])),
    ]),
  ];
  const find = (list: { id: string; name: string; weight: number }[], id: string) =>
    list.find((child) => child.id === id);
  const show = (child: { name: string; weight: number } | undefined) =>
    child ? formatWeight(child.weight) : "removed";
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Bring the news to the person who just pressed Save at the bottom of the form.
    box.current?.scrollIntoView({ block: "start" });
    box.current?.focus();
  }, [current.version]);
  const merged = rebaseDraft(base, current, draft);
  const last = current.lastChange;
  return (
    <div
      ref={box}
      tabIndex={-1}
      className="conflict"
      role="alert"
      aria-labelledby="conflict-heading"
    >
      <h3 id="conflict-heading">Someone else changed this split while you were editing</h3>
      <p>
        {last ? (
          <>
            <strong>{last.by ?? "Someone"}</strong> saved version {current.version} at{" "}
            {formatDateTime(last.at)}: “{last.reason}”.
          </>
        ) : (
          <>The split is now at version {current.version}.</>
        )}{" "}
        Nothing of yours was saved.
      </p>
      <table>
        <caption className="sr-only">Weights: when you opened, saved now, and your edit</caption>
        <thead>
          <tr>
            <th scope="col">Budget</th>
            <th scope="col" className="num">
              When you opened (v{base.version})
            </th>
            <th scope="col" className="num">
              Saved now (v{current.version})
            </th>
            <th scope="col" className="num">
              Your edit
            </th>
            <th scope="col" className="num">
              If you re-apply
            </th>
          </tr>
        </thead>
        <tbody>
          {ids.map((id) => {
            const before = find(base.children, id);
            const now = find(current.children, id);
            const mine = draft.find((child) => child.id === id);
            return (
              <tr key={id} className={show(before) !== show(now) ? "is-changed" : undefined}>
                <th scope="row" className="tree-row-head">
                  {now?.name ?? before?.name ?? mine?.name}
                </th>
                <td className="num">{before ? formatWeight(before.weight) : "—"}</td>
                <td className="num">{before || now ? show(now) : "—"}</td>
                <td className="num">
                  {mine ? formatWeight(parseWeight(mine.weightText) ?? 0) : "removed"}
                </td>
                <td className="num">{weightText(merged.find((child) => child.id === id))}</td>
              </tr>
            );
          })}
          {draft
            .filter((child) => !child.id)
            .map((child) => (
              <tr key={child.key}>
                <th scope="row" className="tree-row-head">
                  {child.name || "(new)"}
                </th>
                <td className="num">—</td>
                <td className="num">—</td>
                <td className="num">{weightText(child)} (new)</td>
                <td className="num">{weightText(child)}</td>
              </tr>
            ))}
        </tbody>
      </table>
      <div className="editor-actions">
        <button type="button" className="button button-primary" onClick={onReapply}>
          Re-apply my edit
        </button>
        <button type="button" className="button" onClick={onDiscard}>
          Discard my edit
        </button>
      </div>
    </div>
  );
}
