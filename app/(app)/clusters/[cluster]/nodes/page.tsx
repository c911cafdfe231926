import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ClusterNodesView } from "@/components/nodes/cluster-nodes-view";
import { PrefetchedQueries, seedQuery } from "@/components/providers/prefetched-queries";
import { getSessionUser } from "@/lib/auth";
import { listClusterNodes } from "@/lib/data/nodes";
import { AppError } from "@/lib/errors";
import { clusterNodesQuery } from "@/lib/queries/clusters";
import { pageParam } from "../../../path-param";
import { setNodeHealthAction } from "./actions";

type Props = { params: Promise<{ cluster: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `${(await params).cluster} nodes` };
}

async function load(cluster: string) {
  try {
    return await listClusterNodes(cluster);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

export default async function NodesPage({ params }: Props) {
  const cluster = pageParam((await params).cluster);
  const [nodes, user] = await Promise.all([load(cluster), getSessionUser()]);
  return (
    <PrefetchedQueries seeds={[seedQuery(clusterNodesQuery(cluster), nodes)]}>
      <ClusterNodesView
        cluster={cluster}
        isAdmin={user?.isAdmin === true}
        healthAction={setNodeHealthAction}
      />
    </PrefetchedQueries>
  );
}
