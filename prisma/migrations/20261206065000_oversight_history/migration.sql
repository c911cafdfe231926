-- CreateEnum
CREATE TYPE "HealthChangeSource" AS ENUM ('person', 'executor', 'demo_driver');

-- AlterTable
ALTER TABLE "node_health_changes" ADD COLUMN     "reason" TEXT,
ADD COLUMN     "source" "HealthChangeSource",
ADD COLUMN     "userId" TEXT;

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "cancelReason" TEXT,
ADD COLUMN     "cancelledById" TEXT;

-- CreateIndex
CREATE INDEX "node_health_changes_clusterId_nodeIndex_at_idx" ON "node_health_changes"("clusterId", "nodeIndex", "at");

-- AddForeignKey
ALTER TABLE "node_health_changes" ADD CONSTRAINT "node_health_changes_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_cancelledById_fkey" FOREIGN KEY ("cancelledById") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
