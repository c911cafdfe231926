-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "firstStartedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "usage_hourly" ADD COLUMN     "effectiveShare" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "preemptions" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "jobs_clusterId_submittedAt_idx" ON "jobs"("clusterId", "submittedAt");
