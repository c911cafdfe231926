"use client";

import { useMemo } from "react";
import { TreeRowName, useOpenBranches } from "@/components/budget-tree/tree-fold";
import { visibleRows } from "@/components/budget-tree/tree-model";
import {
  formatFulfilmentPercent,
  formatGpuHoursNumber,
  formatInteger,
  formatPercent,
  formatWait,
} from "@/lib/format";
import {
  findReviewFocus,
  focusFirst,
  type ReviewRow,
  type WaitSummary,
} from "@/lib/reports/review-table";
import { isUnderServed } from "./review-format";
import { ScrollRegion } from "@/components/layout/scroll-region";

/**
 * The review per tree node, foldable by branch. The viewer's branches (what they lead, or
 * the budgets they belong to) come first, open and marked; everything else starts folded.
 */
export function ReviewTable({
  rows,
  jobClasses,
  leadIds,
  memberIds,
}: {
  rows: ReviewRow[];
  jobClasses: string[];
  leadIds: string[];
  memberIds: string[];
}) {
  const { ordered, mine, focusTops } = useMemo(() => {
    const parentOf = new Map(rows.map((row) => [row.id, row.parentId]));
    const isBelow = (id: string, ancestors: Set<string>) => {
      for (let at: string | null | undefined = id; at; at = parentOf.get(at)) {
        if (ancestors.has(at)) return true;
      }
      return false;
    };
    // A lead of a node and of its ancestor sees the higher one; members see their leaves.
    const { leadTops, memberIds: members } = findReviewFocus(rows, leadIds, memberIds);
    const focus = new Set([...leadTops, ...members]);
    return {
      ordered: focusFirst(rows, focus),
      mine: new Set(rows.filter((row) => isBelow(row.id, focus)).map((row) => row.id)),
      focusTops: focus,
    };
  }, [rows, leadIds, memberIds]);

  const { open, toggle } = useOpenBranches(() => {
    const ids = new Set(rows.filter((row) => row.depth === 0).map((row) => row.id));
    const parentOf = new Map(rows.map((row) => [row.id, row.parentId]));
    for (const id of focusTops) {
      const row = rows.find((candidate) => candidate.id === id);
      if (row && !row.isLeaf) ids.add(id);
      for (let at = parentOf.get(id); at; at = parentOf.get(at)) ids.add(at);
    }
    return ids;
  });
  // Every row is rendered and folded ones hidden by CSS, so that print shows the whole tree.
  const shownIds = useMemo(
    () => new Set(visibleRows(ordered, open).map((row) => row.id)),
    [ordered, open],
  );

  return (
    <ScrollRegion label="Per budget">
      <table className="review-table">
        <caption className="sr-only">Entitled and received GPU-hours per budget</caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              Budget
            </th>
            <th scope="col" rowSpan={2} className="num">
              <abbr title="Effective share in force over the period: its mean over the period's hours, 0 before the budget existed or after it was removed (docs/fulfilment.md)">
                Share
              </abbr>
            </th>
            <th scope="colgroup" colSpan={4} className="group-head">
              GPU-hours
            </th>
            <th scope="col" rowSpan={2} className="num">
              <abbr title="Of the GPU-hours entitled over the period, the share received (at most 100%)">
                Fulfilment
              </abbr>
            </th>
            <th scope="col" rowSpan={2} className="num">
              <abbr title="Each hour on its own: GPU-hours received beyond one hour's entitlement make up for no other hour">
                Hour by hour
              </abbr>
            </th>
            {jobClasses.length > 0 ? (
              <th scope="colgroup" colSpan={jobClasses.length} className="group-head">
                Queue wait p50 / p90
              </th>
            ) : null}
            <th scope="col" rowSpan={2} className="num">
              Preempt&shy;ions
            </th>
          </tr>
          <tr>
            <th scope="col" className="num">
              <abbr title="Share of capacity each hour, capped by the budget's demand">
                Entitled
              </abbr>
            </th>
            <th scope="col" className="num">
              <abbr title="Capacity poured down the tree by weight, each budget capped by its demand, unused parts flowing to siblings">
                Work-conserving
              </abbr>
            </th>
            <th scope="col" className="num">
              Allocated
            </th>
            <th scope="col" className="num">
              Unallocated
            </th>
            {jobClasses.map((name) => (
              <th scope="col" className="num" key={name}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ordered.map((row) => (
            <tr
              key={row.id}
              className={
                [mine.has(row.id) ? "is-mine" : "", shownIds.has(row.id) ? "" : "is-folded"]
                  .filter(Boolean)
                  .join(" ") || undefined
              }
              data-path={row.path}
            >
              <th scope="row" className="tree-row-head">
                <TreeRowName
                  id={row.id}
                  name={row.name}
                  depth={row.depth}
                  isLeaf={row.isLeaf}
                  isOpen={open.has(row.id)}
                  onToggle={toggle}
                >
                  <span className={row.depth <= 1 ? "row-name strong" : "row-name"}>
                    {row.name}
                  </span>
                  {focusTops.has(row.id) ? (
                    <span className="pill pill-mine">
                      {row.isLeaf && !leadIds.includes(row.id) ? "your budget" : "your branch"}
                    </span>
                  ) : null}
                  {row.isLive ? null : <span className="pill">removed</span>}
                </TreeRowName>
              </th>
              <td className="num">{formatPercent(row.effectiveShare)}</td>
              <td className="num">{formatGpuHoursNumber(row.entitledGpuHours)}</td>
              <td className="num">{formatGpuHoursNumber(row.workConservingGpuHours)}</td>
              <td className="num">{formatGpuHoursNumber(row.receivedAllocatedGpuHours)}</td>
              <td className="num">{formatGpuHoursNumber(row.receivedUnallocatedGpuHours)}</td>
              <td className="num">
                <Fulfilment value={row.fulfilment} isShort={isUnderServed(row)} />
              </td>
              <td className="num">
                {row.hourlyFulfilment === null
                  ? "—"
                  : formatFulfilmentPercent(row.hourlyFulfilment)}
              </td>
              {jobClasses.map((name) => (
                <td className="num wait" key={name}>
                  <Wait summary={row.waits[name]} />
                </td>
              ))}
              <td className="num">{formatInteger(row.preemptions)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function Fulfilment({ value, isShort }: { value: number | null; isShort: boolean }) {
  if (value === null)
    return (
      <span className="muted" title="No demand, so nothing was entitled">
        —
      </span>
    );
  return (
    <span className={isShort ? "fulfilment is-short" : "fulfilment"}>
      {isShort ? (
        <span aria-hidden="true" className="short-mark">
          ▼{" "}
        </span>
      ) : null}
      {formatFulfilmentPercent(value)}
      {isShort ? <span className="sr-only"> (below 95%, under-served)</span> : null}
    </span>
  );
}

function Wait({ summary }: { summary: WaitSummary | undefined }) {
  if (!summary) return <span className="muted">—</span>;
  return (
    // p50 and p90 each stay whole; the cell breaks between them when the table is short of room.
    <span title={`${formatInteger(summary.jobs)} jobs`}>
      <span className="wait-part">{formatWait(summary.waitP50Sec)}</span>{" "}
      <span className="wait-part">/ {formatWait(summary.waitP90Sec)}</span>
    </span>
  );
}
