"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { formatDateTime, formatFulfilment, formatWholePercent } from "@/lib/format";
import { whatIfListQuery } from "@/lib/queries/what-ifs";
import { whatIfHref } from "./what-if-href";
import { ScrollRegion } from "@/components/layout/scroll-region";

/** A draft's what-ifs, newest first, each linking to its result (kept for later). */
export function WhatIfList({ nodeId, draftId }: { nodeId: string; draftId: string }) {
  const { data: runs } = useQuery(whatIfListQuery(draftId));
  if (!runs) return <p className="muted">Loading…</p>;
  if (runs.length === 0) return <p className="muted">No what-ifs of this draft yet.</p>;
  return (
    <ScrollRegion label="What-ifs of this draft">
      <table aria-label="What-ifs of this draft">
        <thead>
          <tr>
            {/* Two clocks (ClockNote): in the demo the cluster clock runs ahead of real time. */}
            <th>Period (cluster clock)</th>
            <th>Started (real time)</th>
            <th>State</th>
            <th className="num">Branch fulfilment → with the draft</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => {
            const total = run.summary?.rows[0];
            const before = total?.current ?? total?.happened ?? null;
            return (
              <tr key={run.id}>
                <td>
                  <Link href={whatIfHref(nodeId, draftId, run.id)}>{run.name}</Link>
                  {/* Runs stored before the control was optional have no hasControl: it ran. */}
                  {run.options.hasControl !== false ? (
                    <span className="hint"> (with the control)</span>
                  ) : null}
                </td>
                <td>
                  {formatDateTime(run.createdAt)} by {run.userName}
                </td>
                <td>
                  <span className={`status status-${run.status}`}>{run.status}</span>
                  {run.status === "running" ? ` ${formatWholePercent(run.progress)}` : null}
                </td>
                <td className="num">
                  {total
                    ? `${before ? formatFulfilment(before.fulfilment) : "–"} → ${formatFulfilment(total.draft.fulfilment)}`
                    : "–"}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
