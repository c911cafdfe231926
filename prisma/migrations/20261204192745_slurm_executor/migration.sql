-- CreateEnum
CREATE TYPE "ClusterExecutor" AS ENUM ('builtin', 'slurm');

-- AlterTable
ALTER TABLE "clusters" ADD COLUMN     "defaultMinRuntimeSec" INTEGER NOT NULL DEFAULT 3600,
ADD COLUMN     "executor" "ClusterExecutor" NOT NULL DEFAULT 'builtin';

-- AlterTable
ALTER TABLE "cluster_nodes" ADD COLUMN     "hostname" TEXT;

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "externalId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "cluster_nodes_clusterId_hostname_key" ON "cluster_nodes"("clusterId", "hostname");

-- CreateIndex
CREATE UNIQUE INDEX "jobs_clusterId_externalId_key" ON "jobs"("clusterId", "externalId");
