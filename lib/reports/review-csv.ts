import { roundFulfilment, roundTo as round } from "../sim/hourly";
import { toCsv, type CsvCell } from "./csv";
import { jobClassesOf, type ReviewRow } from "./review-table";

/**
 * The review table as CSV, one line per tree node in tree order: path (the budget path: empty
 * for the root), the share in force over the period (its mean over the hours) as a fraction,
 * GPU-hours to 0.01, fulfilment over the period and the hour-by-hour one (docs/fulfilment.md),
 * waits in seconds by job class.
 *
 * @example reviewCsv(rows).split("\r\n")[0] // "path,name,depth,is_leaf,effective_share,..."
 */
export function reviewCsv(rows: readonly ReviewRow[]): string {
  const classes = jobClassesOf(rows);
  const header = [
    "path",
    "name",
    "depth",
    "is_leaf",
    "effective_share",
    "entitled_gpu_hours",
    "work_conserving_gpu_hours",
    "received_gpu_hours",
    "received_allocated_gpu_hours",
    "received_unallocated_gpu_hours",
    "fulfilment",
    "hourly_fulfilment",
    "preemptions",
    ...classes.flatMap((name) => [`${name}_jobs`, `${name}_wait_p50_sec`, `${name}_wait_p90_sec`]),
  ];
  const lines = rows.map((row): CsvCell[] => [
    row.path,
    row.name,
    row.depth,
    row.isLeaf ? "true" : "false",
    round(row.effectiveShare, 6),
    round(row.entitledGpuHours, 2),
    round(row.workConservingGpuHours, 2),
    round(row.receivedGpuHours, 2),
    round(row.receivedAllocatedGpuHours, 2),
    round(row.receivedUnallocatedGpuHours, 2),
    row.fulfilment === null ? null : roundFulfilment(row.fulfilment),
    row.hourlyFulfilment === null ? null : roundFulfilment(row.hourlyFulfilment),
    row.preemptions,
    ...classes.flatMap((name) => {
      const wait = row.waits[name];
      return wait
        ? [wait.jobs, round(wait.waitP50Sec, 0), round(wait.waitP90Sec, 0)]
        : [0, null, null];
    }),
  ]);
  return toCsv(header, lines);
}
