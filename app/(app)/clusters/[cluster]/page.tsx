import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { ClusterQueueView } from "@/components/queue/cluster-queue-view";
import { getSessionUser } from "@/lib/auth";
import { getClusterQueue } from "@/lib/data/queue";
import { AppError } from "@/lib/errors";
import { clusterQueueQuery } from "@/lib/queries/clusters";
import { pageParam } from "../../path-param";
import { ClockNote } from "@/components/layout/clock-note";
import { PageHead } from "@/components/layout/page-head";

type Props = {
  params: Promise<{ cluster: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `${(await params).cluster} queue` };
}

export default async function ClusterQueuePage({ params, searchParams }: Props) {
  const cluster = pageParam((await params).cluster);
  const [user, { mine }] = await Promise.all([getSessionUser(), searchParams]);
  if (!user) redirect("/signin");
  // "mine=1" shows only the viewer's jobs; any other value is the whole queue.
  const isMineOnly = mine === "1";
  const queue = await getClusterQueue(cluster).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  const isSlurm = queue.cluster.executor === "slurm";
  return (
    <>
      <PageHead
        title={<>{cluster} queue</>}
        actions={
          <p className="card-links">
            <Link href={`/clusters/${cluster}/nodes`}>Nodes</Link>
            {isSlurm ? (
              <span className="muted">
                Run by SLURM: submit with <code>sbatch -A &lt;your budget&apos;s account&gt;</code>;
                the Allot bridge starts jobs in this order.
              </span>
            ) : (
              <Link className="button button-primary" href={`/jobs/new?cluster=${cluster}`}>
                Submit a job
              </Link>
            )}
          </p>
        }
      >
        <p className="muted">Live: refreshes every few seconds.</p>
        <ClockNote />
      </PageHead>
      <PrefetchedQueries seeds={[seedQuery(clusterQueueQuery(cluster), queue)]}>
        <ClusterQueueView cluster={cluster} viewerId={user.id} isMineOnly={isMineOnly} />
      </PrefetchedQueries>
    </>
  );
}
