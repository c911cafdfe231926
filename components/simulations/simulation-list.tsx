"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { SimulationListItem } from "@/lib/simulations/store/simulations";
import { describeOptions } from "@/lib/simulations/scenario-options";
import {
  formatDateTime,
  formatFulfilment,
  formatInteger,
  formatShare,
  formatWait,
  formatWholePercent,
} from "@/lib/format";
import { SOURCE_LABELS } from "./sim-labels";
import { simulationListQuery } from "@/lib/queries/simulations";
import { ScrollRegion } from "@/components/layout/scroll-region";

function Status({ simulation }: { simulation: SimulationListItem }) {
  if (simulation.status === "running") {
    return (
      <span className="status status-running">
        running {formatWholePercent(simulation.progress)}
      </span>
    );
  }
  return <span className={`status status-${simulation.status}`}>{simulation.status}</span>;
}

function Pair({
  item,
  pick,
}: {
  item: SimulationListItem;
  pick: (h: NonNullable<SimulationListItem["headline"]>[string]) => string;
}) {
  const baseline = item.headline?.baseline;
  const allocation = item.headline?.allocation;
  if (!baseline || !allocation) return <span className="muted">–</span>;
  return (
    <span className="pair">
      <span className="swatch swatch-baseline" aria-hidden="true" />
      {pick(baseline)} <span aria-hidden="true">→</span>
      <span className="sr-only">baseline, then allocation</span>{" "}
      <span className="swatch swatch-allocation" aria-hidden="true" />
      {pick(allocation)}
    </span>
  );
}

/** Past simulations, newest first; polls while any is queued or running. */
export function SimulationList() {
  const { data: simulations } = useQuery(simulationListQuery());
  if (!simulations) return <p>Loading…</p>;
  if (simulations.length === 0) {
    return <p>No simulations yet. Start one to compare the budget scheduler with priorities.</p>;
  }
  return (
    <ScrollRegion label="Past simulations">
      <table>
        <caption className="sr-only">Past simulations</caption>
        <thead>
          <tr>
            <th scope="col">Simulation</th>
            <th scope="col">Inputs</th>
            <th scope="col">Status</th>
            <th scope="col">Utilisation</th>
            <th scope="col">Fulfilment</th>
            <th scope="col">Training wait p50</th>
            <th scope="col">Started by</th>
            <th scope="col">Report</th>
          </tr>
        </thead>
        <tbody>
          {simulations.map((item) => (
            <tr key={item.id}>
              <td>
                <Link href={`/simulations/${item.id}`}>{item.name}</Link>
                <div className="muted small">{formatDateTime(item.createdAt)}</div>
              </td>
              <td>
                {SOURCE_LABELS[item.source] ?? item.source}
                <div className="muted small">
                  {describeOptions(item.options)}
                  {item.jobCount !== null ? ` · ${formatInteger(item.jobCount)} jobs` : ""}
                </div>
              </td>
              <td>
                <Status simulation={item} />
              </td>
              <td className="num">
                <Pair item={item} pick={(h) => formatShare(h.utilisation)} />
              </td>
              <td className="num">
                <Pair item={item} pick={(h) => formatFulfilment(h.fulfilment)} />
              </td>
              <td className="num">
                <Pair
                  item={item}
                  pick={(h) =>
                    h.waitP50Sec.training === undefined ? "–" : formatWait(h.waitP50Sec.training)
                  }
                />
              </td>
              <td>{item.userName}</td>
              <td>
                {item.status === "done" ? (
                  <a href={`/api/v1/simulations/${item.id}/report`} download>
                    JSON
                  </a>
                ) : (
                  <span className="muted">–</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
