// Server side of the one way live data reaches a page (docs/decisions/094-one-way-to-refresh.md):
// the page reads through lib/data, seeds the same query options the browser polls, and the
// browser starts from that answer instead of asking again.
import {
  dehydrate,
  HydrationBoundary,
  QueryClient,
  type DataTag,
  type QueryKey,
} from "@tanstack/react-query";
import type { ReactNode } from "react";

export type QuerySeed = { queryKey: QueryKey; data: unknown };

/** One query's answer, typed by its options: `seedQuery(simulationQuery(id), simulation)`. */
export function seedQuery<T>(
  options: { queryKey: DataTag<QueryKey, T, Error> },
  data: T,
): QuerySeed {
  return { queryKey: options.queryKey, data };
}

/** Renders `children` with the seeded answers in the browser's query cache. */
export function PrefetchedQueries({
  seeds,
  children,
}: {
  seeds: QuerySeed[];
  children: ReactNode;
}) {
  const client = new QueryClient();
  for (const seed of seeds) client.setQueryData(seed.queryKey, seed.data);
  return <HydrationBoundary state={dehydrate(client)}>{children}</HydrationBoundary>;
}
