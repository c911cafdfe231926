import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { QueuesView } from "@/components/queue/queues-view";
import { getSessionUser } from "@/lib/auth";
import { listJobs } from "@/lib/data/job-list";
import { getClusterQueue, listClusterLoads } from "@/lib/data/queue";
import { clusterQueueQuery } from "@/lib/queries/clusters";
import { jobListQuery } from "@/lib/queries/jobs";
import { withDefaults } from "@/lib/validation/job-list";

export const metadata: Metadata = { title: "Queues" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function QueuesPage({ searchParams }: Props) {
  const user = await getSessionUser();
  if (!user) redirect("/signin");
  const isMineOnly = (await searchParams).mine === "1";
  const mineIn = (state: "pending" | "running") =>
    withDefaults({ user: user.id, state, sort: "submitted", perPage: 100 });
  const mine = { pending: mineIn("pending"), running: mineIn("running") };
  const [pending, running, loads] = await Promise.all([
    listJobs(user, mine.pending),
    listJobs(user, mine.running),
    listClusterLoads(),
  ]);
  const queues = await Promise.all(loads.map((load) => getClusterQueue(load.name)));
  const seeds = [
    seedQuery(jobListQuery(mine.pending), pending),
    seedQuery(jobListQuery(mine.running), running),
    ...queues.map((queue) => seedQuery(clusterQueueQuery(queue.cluster.name), queue)),
  ];
  return (
    <PrefetchedQueries seeds={seeds}>
      <QueuesView
        clusterNames={loads.map((load) => load.name)}
        mine={mine}
        viewerId={user.id}
        isMineOnly={isMineOnly}
      />
    </PrefetchedQueries>
  );
}
