"use client";

// The fold and unfold of every tree table (overview, budgets, review): which branches are
// open, and the indented name cell with its arrow. Row filtering is tree-model's visibleRows.
import { Children, useCallback, useState, type ReactNode } from "react";

/** Open branch ids and a stable toggle (memoised rows can take it as a prop). */
export function useOpenBranches(initial: () => Set<string>) {
  const [open, setOpen] = useState<Set<string>>(initial);
  const toggle = useCallback((id: string) => {
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  return { open, setOpen, toggle };
}

/** A row's name, indented by depth, with the fold arrow of a branch (or its space on a leaf). */
export function TreeRowName({
  id,
  name,
  depth,
  isLeaf,
  isOpen,
  isDisabled = false,
  onToggle,
  children,
}: {
  id: string;
  name: string;
  depth: number;
  isLeaf: boolean;
  isOpen: boolean;
  isDisabled?: boolean;
  onToggle: (id: string) => void;
  /** The name itself and anything after it (a button, pills). */
  children: ReactNode;
}) {
  // The arrow (or its space) and the name never part when a narrow cell wraps: only what
  // follows the name (pills, counts) moves to the next line.
  const [label, ...after] = Children.toArray(children);
  return (
    <span className="tree-name" style={{ paddingLeft: `${depth * 1.25}rem` }}>
      <span className="tree-name-head">
        {isLeaf ? (
          <span aria-hidden="true" className="tree-toggle-space" />
        ) : (
          <button
            type="button"
            className="tree-toggle"
            aria-expanded={isOpen}
            aria-label={`${isOpen ? "Collapse" : "Expand"} ${name}`}
            disabled={isDisabled}
            onClick={() => onToggle(id)}
          >
            {isOpen ? "▾" : "▸"}
          </button>
        )}
        {label}
      </span>
      {after}
    </span>
  );
}
