-- CreateTable
CREATE TABLE "node_health_changes" (
    "id" TEXT NOT NULL,
    "clusterId" TEXT NOT NULL,
    "nodeIndex" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "health" "NodeHealth" NOT NULL,

    CONSTRAINT "node_health_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "node_health_changes_clusterId_at_idx" ON "node_health_changes"("clusterId", "at");

-- CreateIndex
CREATE INDEX "jobs_clusterId_endedAt_idx" ON "jobs"("clusterId", "endedAt");

-- AddForeignKey
ALTER TABLE "node_health_changes" ADD CONSTRAINT "node_health_changes_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "clusters"("id") ON DELETE CASCADE ON UPDATE CASCADE;
