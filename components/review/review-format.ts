// Shared by the review's table, headline and charts.

/** A funded budget is served when it received at least this part of its entitlement. */
export const FULFILMENT_TARGET = 0.95;

/**
 * Flagged as under-served: fulfilment below the target and less received than entitled. A row
 * that received at least its entitlement is never flagged, even a branch whose leaves' surplus
 * and shortfall leave its fulfilment under the target.
 */
export function isUnderServed(row: {
  fulfilment: number | null;
  receivedGpuHours: number;
  entitledGpuHours: number;
}): boolean {
  return (
    row.fulfilment !== null &&
    row.fulfilment < FULFILMENT_TARGET &&
    row.receivedGpuHours < row.entitledGpuHours
  );
}
