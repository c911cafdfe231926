"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import "./budget-tree.css";
import {
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  useTransition,
} from "react";
import { formatBudgetCounts, formatInteger } from "@/lib/format";
import type { SubtreeTotals } from "./budget-tree-rows";
import { BudgetTreeView } from "./budget-tree-view";
import { NodeDetails } from "./node-details";
import { useOpenBranches } from "./tree-fold";
import type { TryPeriod } from "@/lib/validation/try-period";
import { SplitEditor } from "./split-editor";
import {
  expandTree,
  countOwnMatches,
  matchSearch,
  visibleRows,
  type ClusterRef,
  type CompactTree,
  type NodeRow,
} from "./tree-model";

/** Distinct leaf budgets and people below each inner node (the org chart's brackets). */
function subtreeTotals(rows: NodeRow[]): Map<string, SubtreeTotals> {
  const leaves = new Map<string, number>();
  const people = new Map<string, Set<string>>();
  // Rows are depth-first: walking backwards visits children before their parent.
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index]!;
    const own = people.get(row.id) ?? new Set<string>();
    for (const member of row.members) own.add(member.id);
    people.set(row.id, own);
    if (row.isLeaf) leaves.set(row.id, (leaves.get(row.id) ?? 0) + 1);
    if (row.parentId !== null) {
      leaves.set(row.parentId, (leaves.get(row.parentId) ?? 0) + (leaves.get(row.id) ?? 0));
      const parentSet = people.get(row.parentId) ?? new Set<string>();
      for (const id of own) parentSet.add(id);
      people.set(row.parentId, parentSet);
    }
  }
  const totals = new Map<string, SubtreeTotals>();
  for (const row of rows) {
    totals.set(row.id, { budgets: leaves.get(row.id) ?? 0, people: people.get(row.id)?.size ?? 0 });
  }
  return totals;
}

type SavedMessage = { text: string; nodeId: string; newNames: string[] };

/**
 * On a narrow window the details stand below the tree, a screen or more away from the name
 * tapped: bring their heading into view and give it the focus. Beside the tree (wide window)
 * they are already in view and the focus stays in the tree.
 */
function revealDetails(tree: HTMLElement | null): void {
  const heading = document.getElementById("details-heading");
  if (!tree || !heading) return;
  const isBelowTree = heading.getBoundingClientRect().top >= tree.getBoundingClientRect().bottom;
  if (!isBelowTree) return;
  heading.scrollIntoView({ block: "start" });
  heading.focus({ preventScroll: true });
}

/**
 * What was saved, with the history, and for each new budget an offer to add its people: it
 * gets its share at once but nobody can charge it before a member is added.
 */
function SavedBanner({
  message,
  rows,
  onSelect,
}: {
  message: SavedMessage;
  rows: NodeRow[];
  onSelect: (id: string) => void;
}) {
  const added = rows.filter(
    (row) => row.parentId === message.nodeId && message.newNames.includes(row.name),
  );
  return (
    <div className="saved-banner">
      <p>
        {message.text}{" "}
        <Link href={`/budgets/${encodeURIComponent(message.nodeId)}/history`}>See the history</Link>
      </p>
      {added.length > 0 ? (
        <p>
          Nobody can use {added.length === 1 ? "the new budget" : "the new budgets"} yet: add a
          member or a lead.{" "}
          {added.map((row) => (
            <button
              key={row.id}
              type="button"
              className="button button-small"
              onClick={() => onSelect(row.id)}
            >
              Add people to {row.name}
            </button>
          ))}
        </p>
      ) : null}
    </div>
  );
}

/** The budgets page: search, the tree, the selected budget's details, and the split editor. */
export function BudgetWorkspace({
  tree,
  clusters,
  initialSelectedId,
  isEditingAtStart = false,
  tryPeriod = null,
}: {
  tree: CompactTree;
  clusters: ClusterRef[];
  initialSelectedId: string;
  isEditingAtStart?: boolean;
  /** The review period the lead came from: the editor's what-if replays it. */
  tryPeriod?: TryPeriod | null;
}) {
  const rows = useMemo(() => expandTree(tree), [tree]);
  const [query, setQuery] = useState("");
  // The URL's budget first: a selection made here is written to it (replaceState), and Back to
  // this page brings the server's first answer, made before that selection.
  const urlId = useSearchParams().get("node");
  const startId =
    urlId !== null && tree.rows.some((row) => row.id === urlId) ? urlId : initialSelectedId;
  const [selectedId, setSelectedId] = useState(startId);
  // ?edit=1 opens the editor of the server's selection, unless the URL has moved on since.
  const [editingId, setEditingId] = useState<string | null>(
    isEditingAtStart && startId === initialSelectedId ? startId : null,
  );
  const [savedMessage, setSavedMessage] = useState<SavedMessage | null>(null);
  const savedRef = useRef<HTMLDivElement>(null);
  const treeRef = useRef<HTMLElement>(null);
  // Counts selections made here (not the page's first one), each of which reveals the details.
  const [selectionCount, setSelectionCount] = useState(0);
  useEffect(() => {
    if (selectionCount > 0) revealDetails(treeRef.current);
  }, [selectionCount]);
  // After a save the editor is gone: focus moves to the message that says what was saved.
  useEffect(() => {
    if (savedMessage) savedRef.current?.focus();
  }, [savedMessage]);
  const { open, setOpen, toggle } = useOpenBranches(() => {
    const ids = new Set(rows.filter((row) => row.depth < 2 && !row.isLeaf).map((row) => row.id));
    // Open the way down to the budget the page was opened on.
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (let id = byId.get(startId)?.parentId ?? null; id; id = byId.get(id)?.parentId ?? null) {
      ids.add(id);
    }
    return ids;
  });
  const totals = useMemo(() => subtreeTotals(rows), [rows]);
  const leafCount = useMemo(() => rows.filter((row) => row.isLeaf).length, [rows]);
  // Large trees re-render in the background: typing and clicking never wait for 1,000 rows.
  const deferredQuery = useDeferredValue(query);
  const [, startTransition] = useTransition();
  const matches = useMemo(() => matchSearch(rows, deferredQuery), [rows, deferredQuery]);
  const matchCount = useMemo(() => countOwnMatches(rows, deferredQuery), [rows, deferredQuery]);
  const shown = useMemo(() => visibleRows(rows, open, matches), [rows, open, matches]);
  const selected = rows.find((row) => row.id === selectedId) ?? rows[0]!;
  const editing = editingId ? rows.find((row) => row.id === editingId) : undefined;

  const select = useCallback((id: string) => {
    setSelectedId(id);
    setSelectionCount((count) => count + 1);
    window.history.replaceState(null, "", `/budgets?node=${encodeURIComponent(id)}`);
  }, []);

  return (
    <>
      {editing ? (
        <SplitEditor
          key={editing.id}
          node={editing}
          rows={rows}
          clusters={clusters}
          tryPeriod={tryPeriod}
          onClose={() => setEditingId(null)}
          onSaved={(text, newNames) => {
            setSavedMessage({ text, nodeId: editing.id, newNames });
            setEditingId(null);
          }}
        />
      ) : null}
      <div ref={savedRef} tabIndex={-1} role="status" aria-label="Saved">
        {savedMessage ? (
          <SavedBanner
            message={savedMessage}
            rows={rows}
            onSelect={(id) => {
              select(id);
              setOpen(new Set([...open, savedMessage.nodeId]));
            }}
          />
        ) : null}
      </div>
      <div className="budgets-layout">
        <section ref={treeRef} className="card" aria-labelledby="tree-heading">
          <div className="tree-toolbar">
            <h2 id="tree-heading">Budget tree</h2>
            <label className="search">
              <span className="sr-only">Search budgets or people</span>
              <input
                type="search"
                placeholder="Search budgets or people"
                value={query}
                onChange={(event) => setQuery(event.target.value)}
              />
            </label>
            <button
              type="button"
              className="button"
              onClick={() =>
                startTransition(() =>
                  setOpen(new Set(rows.filter((row) => !row.isLeaf).map((row) => row.id))),
                )
              }
            >
              Expand all
            </button>
            <button
              type="button"
              className="button"
              onClick={() => startTransition(() => setOpen(new Set([rows[0]!.id])))}
            >
              Collapse all
            </button>
          </div>
          <p className="muted small" aria-live="polite">
            {matches
              ? `${formatInteger(matchCount)} of ${formatInteger(rows.length)} nodes in the tree match “${deferredQuery.trim()}”.`
              : `${formatBudgetCounts(leafCount, rows.length)}. Effective share = the product of fractions from the root down.`}
          </p>
          <BudgetTreeView
            rows={shown}
            clusters={clusters}
            open={open}
            totals={totals}
            selectedId={selected.id}
            isSearching={matches !== null}
            onToggle={toggle}
            onSelect={select}
          />
        </section>
        <NodeDetails
          key={selected.id}
          node={selected}
          rows={rows}
          clusters={clusters}
          isEditing={editingId === selected.id}
          onEdit={() => {
            setSavedMessage(null);
            setEditingId(selected.id);
            window.scrollTo({ top: 0, behavior: "smooth" });
          }}
        />
      </div>
    </>
  );
}
