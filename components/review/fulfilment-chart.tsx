import { useId } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { OKABE_ITO } from "@/components/charts/palette";
import type { ReviewRow } from "@/lib/reports/review-table";
import { displayName, Patterns, ROW_PX } from "./chart-patterns";
import { FULFILMENT_TARGET, toFulfilmentBars, type FulfilmentBar } from "./review-format";

/** Each child budget's fulfilment over the period, against the 95% line. */
export function FulfilmentChart({ branch, budgets }: { branch: ReviewRow; budgets: ReviewRow[] }) {
  const prefix = useId().replace(/:/g, "");
  const data = toFulfilmentBars(budgets);
  return (
    <figure className="chart-card">
      <figcaption className="chart-head">
        <h3>Fulfilment below {displayName(branch)}</h3>
        <span className="muted">
          Solid: at least 95%; hatched: below it. Budgets without demand are left out.
        </span>
      </figcaption>
      {data.length === 0 ? (
        <p className="muted">No budget below this branch was entitled to anything.</p>
      ) : (
        <div
          className="chart-box"
          role="img"
          aria-label={`Fulfilment of each budget below ${displayName(branch)}, against the 95% line`}
        >
          <ResponsiveContainer width="100%" height={48 + data.length * ROW_PX}>
            <BarChart
              data={data}
              layout="vertical"
              margin={{ top: 16, right: 48, bottom: 4, left: 8 }}
            >
              <Patterns prefix={prefix} colours={[OKABE_ITO.vermillion]} />
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} />
              <YAxis
                type="category"
                dataKey="name"
                width={180}
                tick={{ fontSize: 11 }}
                interval={0}
              />
              <Tooltip formatter={(_value, _name, item) => (item.payload as FulfilmentBar).text} />
              <ReferenceLine
                x={FULFILMENT_TARGET * 100}
                stroke={OKABE_ITO.black}
                strokeDasharray="4 3"
                label={{ value: "95%", position: "top", fontSize: 11 }}
              />
              <Bar dataKey="percent" name="fulfilment" isAnimationActive={false}>
                {data.map((entry) => (
                  <Cell
                    key={entry.name}
                    fill={entry.isShort ? `url(#${prefix}-hatch-0)` : OKABE_ITO.bluishGreen}
                    stroke={entry.isShort ? OKABE_ITO.vermillion : OKABE_ITO.bluishGreen}
                  />
                ))}
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}
