-- AlterTable
ALTER TABLE "clusters" ADD COLUMN     "ranking" JSONB,
ADD COLUMN     "tickedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "queuePosition" INTEGER,
ADD COLUMN     "waitKey" TEXT,
ADD COLUMN     "waitReason" JSONB,
ADD COLUMN     "waitRule" TEXT;

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "startAckedAt" TIMESTAMP(3),
ADD COLUMN     "stopAckedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "app_clock" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "realAt" TIMESTAMP(3) NOT NULL,
    "simAt" TIMESTAMP(3) NOT NULL,
    "speed" DOUBLE PRECISION NOT NULL DEFAULT 1,

    CONSTRAINT "app_clock_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "runs_clusterId_startedAt_idx" ON "runs"("clusterId", "startedAt");
