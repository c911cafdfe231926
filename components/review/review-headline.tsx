import { formatFulfilmentPercent, formatInteger, formatPercent } from "@/lib/format";
import type { ReviewData } from "@/lib/data/review-page";
import { FULFILMENT_TARGET } from "./review-format";
import { ScrollRegion } from "@/components/layout/scroll-region";

const percentOrDash = (value: number | null) => (value === null ? "—" : formatPercent(value));
const fulfilmentOrDash = (value: number | null) =>
  value === null ? "—" : formatFulfilmentPercent(value);

/** The five figures the meeting starts from, then utilisation per cluster. */
export function ReviewHeadline({
  headline,
  clusterFigures,
}: Pick<ReviewData, "headline" | "clusterFigures">) {
  const { worst } = headline;
  return (
    <section aria-labelledby="headline-heading" className="review-headline">
      <h2 id="headline-heading" className="sr-only">
        Headline figures
      </h2>
      <dl className="headline-grid">
        <div className="card">
          <dt>Utilisation</dt>
          <dd className="stat">{percentOrDash(headline.utilisation)}</dd>
          <dd className="muted">busy of in-service GPU-hours</dd>
        </div>
        <div className="card">
          <dt>Unallocated</dt>
          <dd className="stat">{percentOrDash(headline.unallocatedShare)}</dd>
          <dd className="muted">of all GPU time granted</dd>
        </div>
        <div className="card">
          <dt>Fulfilment</dt>
          <dd className="stat">{fulfilmentOrDash(headline.fulfilment)}</dd>
          <dd className="muted">of funded budgets&apos; entitled GPU-hours, received</dd>
          <dd className="muted small">
            hour by hour: {fulfilmentOrDash(headline.hourlyFulfilment)}
          </dd>
        </div>
        <div className="card">
          <dt>Leaf budgets at {FULFILMENT_TARGET * 100}%</dt>
          <dd className="stat">
            {headline.fundedAtLeast95} of {headline.fundedBudgets}
          </dd>
          <dd className="muted">funded leaf budgets with demand</dd>
        </div>
        <div className="card">
          <dt>Least served</dt>
          {worst ? (
            <>
              <dd className="stat">{formatFulfilmentPercent(worst.fulfilment)}</dd>
              <dd className="worst-path" title={worst.path}>
                {worst.path}
              </dd>
              <dd className="muted small">
                hour by hour: {formatFulfilmentPercent(worst.hourlyFulfilment)}
              </dd>
            </>
          ) : (
            <dd className="stat">—</dd>
          )}
        </div>
      </dl>
      <p className="muted small review-definition">
        <strong>Fulfilment</strong> of a budget is the share of its entitled GPU-hours it received
        over the period, at most 100%. Of a branch or the whole lab, it adds up what each funded
        budget received up to its entitlement, over their entitled hours, so one budget&apos;s
        surplus never hides another&apos;s shortfall. ▼ marks a row under {FULFILMENT_TARGET * 100}%
        that received less than it was entitled to. <strong>Hour by hour</strong> counts each hour
        on its own: GPU-hours received beyond one hour&apos;s entitlement make up for no other hour.
        Where several budgets share the lowest figure (every budget received its due, say), the
        least served is the one with the lowest hour-by-hour figure.
      </p>
      {clusterFigures.length > 1 ? (
        <ScrollRegion label="Per cluster">
          <table className="cluster-figures">
            <caption>Per cluster</caption>
            <thead>
              <tr>
                <th scope="col">Cluster</th>
                <th scope="col" className="num">
                  In-service GPU-h
                </th>
                <th scope="col" className="num">
                  Busy GPU-h
                </th>
                <th scope="col" className="num">
                  Utilisation
                </th>
                <th scope="col" className="num">
                  Unallocated
                </th>
              </tr>
            </thead>
            <tbody>
              {clusterFigures.map((cluster) => (
                <tr key={cluster.cluster}>
                  <th scope="row" className="tree-row-head">
                    {cluster.cluster}
                  </th>
                  <td className="num">{formatInteger(cluster.capacityGpuHours)}</td>
                  <td className="num">{formatInteger(cluster.busyGpuHours)}</td>
                  <td className="num">{percentOrDash(cluster.utilisation)}</td>
                  <td className="num">{percentOrDash(cluster.unallocatedShare)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
    </section>
  );
}
